#include "ui/explorer/TranslationStepsView.h"

#include "core/training/Translator.h"
#include "ui/explorer/AttentionStepsView.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace attnlab::ui {

TranslationStepsView::TranslationStepsView(QWidget* parent) : QWidget(parent), part_(new QComboBox), steps_(new AttentionStepsView)
{
    part_->setObjectName(QStringLiteral("stepsPart"));
    part_->addItem(tr("Cross-attention (translation over source)"), QStringLiteral("cross"));
    part_->addItem(tr("Decoder self-attention (translation so far)"), QStringLiteral("decoder"));
    part_->addItem(tr("Encoder self-attention (source)"), QStringLiteral("encoder"));
    part_->setToolTip(tr("Which attention of the model to compute step by step: rows are the translation's words and <eos> "
                         "(the word each step writes), as the maps name them"));
    auto* label = new QLabel(tr("&Attention"), this);
    label->setBuddy(part_);
    auto* row = new QHBoxLayout;
    row->addWidget(label);
    row->addWidget(part_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(steps_, 1);
    connect(part_, &QComboBox::activated, this, &TranslationStepsView::recompute);
    connect(steps_, &AttentionStepsView::statusMessage, this, &TranslationStepsView::statusMessage);
    connect(steps_, &AttentionStepsView::updated, this, &TranslationStepsView::updated);
    clear(tr("Translate a sentence: one head of the model's attention on it is computed here step by step."));
}

void TranslationStepsView::setSubject(std::shared_ptr<const Translator> translator, const QString& source, const QString& target)
{
    translator_ = std::move(translator);
    source_ = source;
    target_ = target;
    part_->setEnabled(true);
    recompute();
}

void TranslationStepsView::clear(const QString& message)
{
    translator_.reset();
    part_->setEnabled(false);
    steps_->clear(message);
}

void TranslationStepsView::setPart(const QString& part)
{
    const int index = part_->findData(part);
    if (index >= 0 && index != part_->currentIndex()) {
        part_->setCurrentIndex(index);
        recompute();
    }
}

void TranslationStepsView::recompute()
{
    if (!translator_)
        return;
    const auto& model = translator_->config().model;
    // Captured by value: the steps are computed on a worker thread while the explorer may move on.
    steps_->setSubject([translator = translator_, source = source_.toStdString(), target = target_.toStdString(),
                        part = part_->currentData().toString().toStdString()](int layer, int head, int query) {
        return translator->stepByStep(source, target, part, layer, head, query);
    }, model.layers, model.heads, 0);
}

} // namespace attnlab::ui
