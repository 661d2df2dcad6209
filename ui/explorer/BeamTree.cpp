#include "ui/explorer/BeamTree.h"

#include "ui/StdStrings.h"

#include <QHeaderView>

#include <map>

namespace attnlab::ui {
BeamTree::BeamTree(QWidget* parent) : QTreeWidget(parent)
{
    setHeaderLabels({tr("word"), tr("probability"), tr("score (log P / lp)")});
    setRootIsDecorated(true);
    header()->setStretchLastSection(true);
    connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item && item->data(0, Qt::UserRole).isValid())
            emit hypothesisChosen(item->data(0, Qt::UserRole).toInt());
    });
}

void BeamTree::setTranslation(const Translation& t)
{
    clear();
    if (t.hypotheses.empty()) {
        auto* note = new QTreeWidgetItem(this, {t.forced ? tr("A forced translation has no beam.")
                                                              : tr("Greedy decoding keeps one hypothesis: set a beam above 1.")});
        note->setFlags(Qt::ItemIsEnabled);
        return;
    }
    // A trie of the hypotheses' words: a node per shared prefix, a leaf <eos> per hypothesis with its score.
    std::map<std::pair<QTreeWidgetItem*, std::string>, QTreeWidgetItem*> children;
    for (std::size_t h = 0; h < t.hypotheses.size(); ++h) {
        const auto& hypothesis = t.hypotheses[h];
        QTreeWidgetItem* parent = nullptr;
        for (std::size_t i = 0; i <= hypothesis.tokens.size(); ++i) {
            const bool end = i == hypothesis.tokens.size();
            const std::string word = end ? (hypothesis.finished ? "<eos>" : "… (cut at the length limit)") : hypothesis.tokens[i];
            const float p = i < hypothesis.probabilities.size() ? hypothesis.probabilities[i] : 0.0f;
            QTreeWidgetItem*& node = children[{parent, end ? word + "#" + std::to_string(h) : word}];
            if (!node) {
                node = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(this);
                node->setText(0, qs(word));
                node->setText(1, QString::number(p, 'f', 3));
            }
            if (end) {
                node->setText(2, QString::number(hypothesis.score, 'f', 3) + (h == 0 ? tr("  (kept)") : QString()));
                node->setData(2, Qt::UserRole, hypothesis.score);
                node->setData(0, Qt::UserRole, static_cast<int>(h));
                node->setToolTip(0, qs(hypothesis.text));
            }
            if (h == 0) { // the kept path in bold
                QFont f = node->font(0);
                f.setBold(true);
                for (int c = 0; c < 3; ++c)
                    node->setFont(c, f);
            }
            parent = node;
        }
    }
    expandAll();
    resizeColumnToContents(0);
}

} // namespace attnlab::ui
