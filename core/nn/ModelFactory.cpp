#include "core/nn/ModelFactory.h"

#include "core/nn/LstmClassifier.h"
#include "core/nn/SsanClassifier.h"

#include <stdexcept>

namespace attnlab {

std::shared_ptr<SequenceClassifier> ModelFactory::create(const ModelConfig& config)
{
    if (auto problem = config.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    if (config.model == "ssan")
        return std::make_shared<SsanClassifier>(config);
    if (config.model == "lstm")
        return std::make_shared<LstmClassifier>(config);
    throw std::invalid_argument("model: no implementation for '" + config.model + "'");
}

} // namespace attnlab
