// Exact trainable-parameter counts of thesis Table 5.4 (embeddings excluded) and config validation.
#include "core/config/ModelConfig.h"
#include "core/training/TextClassifier.h"

#include <QtTest/QtTest>

namespace {
attnlab::ModelConfig thesisConfig(const std::string& model, const std::string& position, int layers = 1)
{
    attnlab::ModelConfig c;
    c.model = model;
    c.position = position;
    c.dModel = 300;
    c.layers = layers;
    c.rprClip = 10;
    c.numClasses = 5;
    c.vocabularySize = 1000; // not counted
    return c;
}
} // namespace

class TestParameters : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ssanMatchesThesisTable54()
    {
        // 3 x (300*300+300) for Q,K,V + 300*300+300 after attention + 300*300+300 sentence FF + 300*5+5.
        QCOMPARE(attnlab::TextClassifier(thesisConfig("ssan", "none")).trainableParameters(), 453005LL);
        // + 2 tables x 21 rows x 300 for RPR with k = 10.
        QCOMPARE(attnlab::TextClassifier(thesisConfig("ssan", "rpr")).trainableParameters(), 465605LL);
        QCOMPARE(attnlab::TextClassifier(thesisConfig("ssan", "rpr", 2)).trainableParameters(), 839405LL);
    }

    void rprTablesScaleWithClip()
    {
        auto c = thesisConfig("ssan", "rpr");
        c.rprClip = 3;
        QCOMPARE(attnlab::TextClassifier(c).trainableParameters(), 453005LL + 2 * 7 * 300);
    }

    void lstmCountFollowsItsFormula()
    {
        // LibTorch's LSTM has two bias vectors per gate: 4 (d*d + d*d + 2d); then d->50 ReLU, 50->5.
        const long long d = 300;
        const long long expected = 4 * (d * d + d * d + 2 * d) + (d * 50 + 50) + (50 * 5 + 5);
        QCOMPARE(attnlab::TextClassifier(thesisConfig("lstm", "none")).trainableParameters(), expected);
    }

    // Section 5.1.4's CNN as Barnes et al. build it: 3 maps per width, 300 hidden units, sentences of n tokens.
    void cnnMatchesThesisTable54()
    {
        auto c = thesisConfig("cnn", "none");
        c.filters = 3;
        c.ffHidden = 300;
        c.inputLength = 57; // Table 5.2's longest SST sentence
        // Convolutions 3 (2 + 3 + 4) 300 + 9 = 8,109; pooled 3 (floor(56/2) + floor(55/2) + floor(54/2)) = 246
        // features -> 300 ReLU: 246 x 300 + 300 = 74,100; softmax 300 x 5 + 5 = 1,505. Total 83,714.
        QCOMPARE(attnlab::TextClassifier(c).trainableParameters(), 83714LL);
        c.inputLength = 56; // SST's tree leaves
        QCOMPARE(attnlab::TextClassifier(c).trainableParameters(), 81914LL);
        // The lab's Table 5.4 set-up: 100-d GloVe and SST's tree leaves, 56 tokens at most.
        c.dModel = 100;
        c.inputLength = 56;
        QCOMPARE(attnlab::TextClassifier(c).trainableParameters(), 3LL * 9 * 100 + 9 + (240 * 300 + 300) + 1505);
        c.inputLength = 4;
        QVERIFY(QString::fromStdString(c.validate()).startsWith("input_length"));
    }

    // Kim (2014): 100 maps of widths 3, 4, 5 straight into the softmax layer.
    void kimCnnCountsItsThreeWidths()
    {
        auto c = thesisConfig("kim-cnn", "none");
        c.filters = 100;
        c.numClasses = 2;
        QCOMPARE(attnlab::TextClassifier(c).trainableParameters(), 100LL * 300 * (3 + 4 + 5) + 300 + (300 * 2 + 2));
        // The lab's earlier cnn: widths 2, 3, 4 and a 50-unit ReLU layer.
        c.model = "cnn-max-over-time";
        c.ffHidden = 50;
        QCOMPARE(attnlab::TextClassifier(c).trainableParameters(),
                 100LL * 300 * 9 + 300 + (300 * 50 + 50) + (50 * 2 + 2));
    }

    void invalidConfigurationsNameTheSetting()
    {
        auto c = thesisConfig("ssan", "rpr");
        c.rprClip = 0;
        QVERIFY(QString::fromStdString(c.validate()).startsWith("rpr_clip"));
        c = thesisConfig("lstm", "rpr");
        QVERIFY(QString::fromStdString(c.validate()).contains("does not apply to model 'lstm'"));
        c = thesisConfig("transformerx", "none");
        QVERIFY(QString::fromStdString(c.validate()).startsWith("model: unknown id"));
        c = thesisConfig("ssan", "none");
        c.dropoutKeep = 0.0;
        QVERIFY(QString::fromStdString(c.validate()).startsWith("dropout_keep"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attnlab::TextClassifier{c});
    }
};

QTEST_APPLESS_MAIN(TestParameters)
#include "test_parameters.moc"
