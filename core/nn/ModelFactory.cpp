#include "core/nn/ModelFactory.h"

#include "core/nn/CnnClassifier.h"
#include "core/nn/LinearClassifier.h"
#include "core/nn/RecurrentClassifier.h"
#include "core/nn/SsanClassifier.h"
#include "core/nn/TransformerClassifier.h"

#include <stdexcept>

namespace attnlab {

std::shared_ptr<SequenceClassifier> ModelFactory::create(const ModelConfig& config)
{
    if (auto problem = config.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    const auto& m = config.model;
    if (m == "ssan" || m == "essan")
        return std::make_shared<SsanClassifier>(config, m == "essan");
    if (m == "transformer")
        return std::make_shared<TransformerClassifier>(config);
    if (m == "rnn" || m == "lstm" || m == "bilstm" || m == "gru" || m == "rnn-attention")
        return std::make_shared<RecurrentClassifier>(config);
    if (m == "cnn")
        return std::make_shared<CnnClassifier>(config);
    if (m == "bow" || m == "ave")
        return std::make_shared<LinearClassifier>(config);
    throw std::invalid_argument("model: no implementation for '" + m + "'");
}

} // namespace attnlab
