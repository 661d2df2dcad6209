// the CPU LSTM and GRU with their hand-written backward (LstmLayer, GruLayer, through
// RecurrentEncoder), and its packed path for the plain RNN (the one every cell takes on a GPU), against LibTorch's own
// packed LSTM, GRU and RNN with the same weights: states, final states and every gradient, in double precision, for
// rows of different lengths in any order, one or two layers, one or both directions.
#include "core/nn/layers/GruLayer.h"
#include "core/nn/layers/LstmLayer.h"
#include "core/nn/models/RecurrentEncoder.h"

#include <QtTest/QtTest>

using namespace attnlab;

namespace {

struct Outputs {
    torch::Tensor states, final;
    std::vector<torch::Tensor> gradients; // input, then the LSTM's parameters in registration order
};

// loss = <states, a> + <final, b>, so every output element reaches the gradients with its own weight.
Outputs lossAndGradients(const torch::Tensor& states, const torch::Tensor& final, const torch::Tensor& x,
                         const std::vector<torch::Tensor>& parameters, const torch::Tensor& a, const torch::Tensor& b)
{
    auto loss = (states * a).sum() + (final * b).sum();
    std::vector<torch::Tensor> inputs{x};
    inputs.insert(inputs.end(), parameters.begin(), parameters.end());
    return {states.detach(), final.detach(), torch::autograd::grad({loss}, inputs)};
}

double largestDifference(const Outputs& ours, const Outputs& reference)
{
    double worst = (ours.states - reference.states).abs().max().item<double>();
    worst = std::max(worst, (ours.final - reference.final).abs().max().item<double>());
    for (std::size_t i = 0; i < ours.gradients.size(); ++i)
        worst = std::max(worst, (ours.gradients[i] - reference.gradients[i]).abs().max().item<double>());
    return worst;
}

} // namespace

class TestRecurrentLayers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesLibTorchsPackedCells_data()
    {
        QTest::addColumn<QString>("cell");
        QTest::addColumn<int>("layers");
        QTest::addColumn<bool>("bidirectional");
        for (const char* cell : {"lstm", "gru"}) {
            QTest::addRow("%s, 1 layer", cell) << cell << 1 << false;
            QTest::addRow("%s, 1 layer, both directions", cell) << cell << 1 << true;
            QTest::addRow("%s, 2 layers, both directions", cell) << cell << 2 << true;
            QTest::addRow("%s, 2 layers", cell) << cell << 2 << false;
        }
        // The plain RNN runs LibTorch's packed path everywhere (the one the GPU takes for every cell): its
        // unpacking back to the caller's rows.
        QTest::addRow("rnn, 1 layer, both directions") << "rnn" << 1 << true;
        QTest::addRow("rnn, 2 layers") << "rnn" << 2 << false;
    }

    void matchesLibTorchsPackedCells()
    {
        QFETCH(QString, cell);
        QFETCH(int, layers);
        QFETCH(bool, bidirectional);
        torch::manual_seed(7);
        const int64_t inputSize = 5, hidden = 4, rows = 5, padded = 7;
        const bool lstm = cell == "lstm";
        RecurrentEncoder encoder(cell.toStdString(), inputSize, hidden, layers, bidirectional);
        encoder->to(torch::kDouble);
        torch::nn::LSTM referenceLstm{nullptr};
        torch::nn::GRU referenceGru{nullptr};
        torch::nn::RNN referenceRnn{nullptr};
        if (cell == "rnn")
            referenceRnn = torch::nn::RNN(torch::nn::RNNOptions(inputSize, hidden).num_layers(layers).batch_first(true)
                                              .bidirectional(bidirectional));
        else if (lstm)
            referenceLstm = torch::nn::LSTM(torch::nn::LSTMOptions(inputSize, hidden).num_layers(layers).batch_first(true)
                                                .bidirectional(bidirectional));
        else
            referenceGru = torch::nn::GRU(torch::nn::GRUOptions(inputSize, hidden).num_layers(layers).batch_first(true)
                                              .bidirectional(bidirectional));
        torch::nn::Module& reference = referenceRnn ? static_cast<torch::nn::Module&>(*referenceRnn)
                                       : lstm       ? static_cast<torch::nn::Module&>(*referenceLstm)
                                                    : *referenceGru;
        reference.to(torch::kDouble);
        {
            torch::NoGradGuard noGrad;
            auto from = encoder->parameters(), to = reference.parameters();
            QCOMPARE(from.size(), to.size());
            for (std::size_t i = 0; i < from.size(); ++i)
                to[i].copy_(from[i]);
        }
        // Unsorted, two rows of equal length, a row of one step, and padding past the longest row.
        const auto lengths = torch::tensor({3, 1, 5, 5, 2}, torch::kLong);
        const auto mask = torch::arange(padded).unsqueeze(0) < lengths.unsqueeze(1);
        // Padding holds garbage on purpose: neither LSTM may read it.
        auto x = torch::randn({rows, padded, inputSize}, torch::kDouble).requires_grad_(true);
        const int directions = bidirectional ? 2 : 1;
        const auto a = torch::randn({rows, padded, directions * hidden}, torch::kDouble) * mask.unsqueeze(-1);
        const auto b = torch::randn({rows, directions * hidden}, torch::kDouble);

        auto ours = encoder(x, mask, /*withStates=*/true, lengths);
        QVERIFY(ours.states.sizes() == torch::IntArrayRef({rows, padded, directions * hidden}));
        const auto oursOut = lossAndGradients(ours.states, ours.final, x, encoder->parameters(), a, b);

        namespace rnn = torch::nn::utils::rnn;
        const auto packed = rnn::pack_padded_sequence(x, lengths, /*batch_first=*/true, /*enforce_sorted=*/false);
        auto [packedOut, h] = [&]() -> std::pair<rnn::PackedSequence, torch::Tensor> {
            if (lstm) {
                auto out = referenceLstm->forward_with_packed_input(packed);
                return {std::get<0>(out), std::get<0>(std::get<1>(out))};
            }
            auto out = referenceRnn ? referenceRnn->forward_with_packed_input(packed) : referenceGru->forward_with_packed_input(packed);
            return {std::get<0>(out), std::get<1>(out)};
        }();
        auto states = std::get<0>(rnn::pad_packed_sequence(packedOut, /*batch_first=*/true, 0.0, padded));
        auto final = bidirectional ? torch::cat({h[-2], h[-1]}, 1) : h[-1];
        const auto referenceOut = lossAndGradients(states, final, x, reference.parameters(), a, b);

        const double difference = largestDifference(oursOut, referenceOut);
        QVERIFY2(difference < 1e-12, qPrintable(QString("largest difference %1").arg(difference)));
        // Padded steps: zero states, and no gradient reaches padded inputs.
        QCOMPARE(ours.states[1].narrow(0, 1, padded - 1).abs().max().item<double>(), 0.0);
        QCOMPARE(oursOut.gradients[0][1].narrow(0, 1, padded - 1).abs().max().item<double>(), 0.0);
    }

    void handChecksOneGruStep()
    {
        // One step from zero state, one unit: r and z gate a zero h, so n = tanh(W_in x + b_in + r b_hn) and
        // h = (1 - z) n.
        const auto x = torch::tensor({{{2.0}}}, torch::kDouble);
        RecurrentWeights w{torch::tensor({{0.5}, {-1.0}, {0.25}}, torch::kDouble), torch::zeros({3, 1}, torch::kDouble),
                           torch::tensor({0.0, 1.0, 0.0}, torch::kDouble), torch::tensor({0.0, 0.0, 0.5}, torch::kDouble)};
        auto steps = GruLayer::run(x, {1}, w, false);
        const double r = 1 / (1 + std::exp(-1.0)), z = 1 / (1 + std::exp(1.0)), n = std::tanh(0.5 + r * 0.5);
        QVERIFY(std::abs(steps.final.item<double>() - (1 - z) * n) < 1e-15);
    }

    void onlyTheFinalStateNeedsNoStates()
    {
        // Without states asked for, the final state and its gradients are the same.
        torch::manual_seed(3);
        RecurrentEncoder encoder("lstm", 3, 4, 1, true);
        encoder->to(torch::kDouble);
        const auto lengths = torch::tensor({2, 4, 1}, torch::kLong);
        const auto mask = torch::arange(4).unsqueeze(0) < lengths.unsqueeze(1);
        auto x = torch::randn({3, 4, 3}, torch::kDouble).requires_grad_(true);
        auto with = encoder(x, mask, true, lengths).final;
        auto without = encoder(x, mask, false, lengths);
        QVERIFY(!without.states.defined());
        QVERIFY(torch::equal(with, without.final));
        auto g1 = torch::autograd::grad({with.sum()}, {x})[0];
        auto g2 = torch::autograd::grad({without.final.sum()}, {x})[0];
        QVERIFY(torch::allclose(g1, g2, 0.0, 1e-14));
    }

    // the padded path a CUDA graph captures (no host lengths) against the packed one above, in double:
    // states, final states and every gradient, for rows of any length in any order, with garbage in the padding
    // and an empty row (one step, as packing counts it). Two layers in both directions are not run padded.
    void paddedRunIsThePackedRun_data()
    {
        QTest::addColumn<QString>("cell");
        QTest::addColumn<int>("layers");
        QTest::addColumn<bool>("bidirectional");
        for (const char* cell : {"lstm", "gru", "rnn"}) {
            QTest::addRow("%s, 1 layer", cell) << cell << 1 << false;
            QTest::addRow("%s, 1 layer, both directions", cell) << cell << 1 << true;
            QTest::addRow("%s, 2 layers", cell) << cell << 2 << false;
        }
    }
    void paddedRunIsThePackedRun()
    {
        QFETCH(QString, cell);
        QFETCH(int, layers);
        QFETCH(bool, bidirectional);
        torch::manual_seed(11);
        const int64_t inputSize = 5, hidden = 4, rows = 6, padded = 7;
        RecurrentEncoder encoder(cell.toStdString(), inputSize, hidden, layers, bidirectional);
        encoder->to(torch::kDouble);
        QVERIFY(encoder->runsPadded());
        const auto lengths = torch::tensor({3, 1, 7, 5, 0, 2}, torch::kLong);
        const auto mask = torch::arange(padded).unsqueeze(0) < lengths.unsqueeze(1);
        auto x = torch::randn({rows, padded, inputSize}, torch::kDouble).requires_grad_(true);
        const int directions = bidirectional ? 2 : 1;
        const auto a = torch::randn({rows, padded, directions * hidden}, torch::kDouble);
        const auto b = torch::randn({rows, directions * hidden}, torch::kDouble);
        auto packed = encoder(x, mask, /*withStates=*/true, lengths);
        auto padded_ = encoder->forwardPadded(x, mask);
        QVERIFY(padded_.states.sizes() == packed.states.sizes());
        const auto packedOut = lossAndGradients(packed.states, packed.final, x, encoder->parameters(), a, b);
        const auto paddedOut = lossAndGradients(padded_.states, padded_.final, x, encoder->parameters(), a, b);
        const double difference = largestDifference(paddedOut, packedOut);
        QVERIFY2(difference < 1e-12, qPrintable(QString("largest difference %1").arg(difference)));
        QVERIFY(packedOut.gradients[0].abs().sum().item<double>() > 0.0); // the comparison compares something
        // Without states: the same final state.
        QVERIFY(torch::allclose(encoder->forwardPadded(x, mask, false).final, packed.final, 0.0, 1e-12));
        QVERIFY(!encoder->forwardPadded(x, mask, false).states.defined());
    }

    void twoLayersBothDirectionsAreNotRunPadded()
    {
        RecurrentEncoder encoder("lstm", 3, 4, 2, true);
        QVERIFY(!encoder->runsPadded());
        QVERIFY_THROWS_EXCEPTION(std::logic_error, encoder->forwardPadded(torch::zeros({1, 2, 3}), torch::ones({1, 2}, torch::kBool)));
    }

    void handChecksOneLstmStep()
    {
        // One step from zero state, one unit: c = i g, h = o tanh(c), with the gates computed by hand.
        const auto x = torch::tensor({{{2.0}}}, torch::kDouble); // [T=1, B=1, I=1]
        RecurrentWeights w{torch::tensor({{0.5}, {-1.0}, {0.25}, {1.0}}, torch::kDouble), torch::zeros({4, 1}, torch::kDouble),
                             torch::tensor({0.0, 0.0, 0.0, -1.0}, torch::kDouble), torch::zeros({4}, torch::kDouble)};
        auto r = LstmLayer::run(x, {1}, w, false);
        const double i = 1 / (1 + std::exp(-1.0)), g = std::tanh(0.5), o = 1 / (1 + std::exp(-1.0));
        QVERIFY(std::abs(r.final.item<double>() - o * std::tanh(i * g)) < 1e-15);
        QVERIFY(std::abs(r.states[0][0][0].item<double>() - o * std::tanh(i * g)) < 1e-15);
    }
};

QTEST_APPLESS_MAIN(TestRecurrentLayers)
#include "test_recurrent_layers.moc"
