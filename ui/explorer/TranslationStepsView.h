#pragma once
#include <QWidget>

#include <memory>

class QComboBox;

namespace attnlab {
class Translator;
} // namespace attnlab

namespace attnlab::ui {

class AttentionStepsView;

// One head of a translation model computed step by step (Translator::stepByStep) on the translation the explorer
// shows: which attention first (the cross-attention of the translation's rows over the source, the decoder's
// causal self-attention, or the encoder's self-attention over the source), then layer, head and row in
// AttentionStepsView. A model without that attention (a recurrent side) says so in place of the table.
// Parts by object name: stepsPart, and AttentionStepsView's.
class TranslationStepsView : public QWidget {
    Q_OBJECT
public:
    explicit TranslationStepsView(QWidget* parent = nullptr);

    // The translation on screen: its source and the words it was given (typed) or wrote (the kept translation).
    void setSubject(std::shared_ptr<const Translator> translator, const QString& source, const QString& target);
    void clear(const QString& message);
    void setPart(const QString& part); // "cross", "decoder" or "encoder"
    AttentionStepsView* steps() const { return steps_; }

Q_SIGNALS:
    void statusMessage(const QString& text);
    void updated();

private:
    void recompute();

    std::shared_ptr<const Translator> translator_;
    QString source_, target_;
    QComboBox* part_;
    AttentionStepsView* steps_;
};

} // namespace attnlab::ui
