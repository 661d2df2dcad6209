#pragma once
#include "core/results/Translation.h"

#include <QTreeWidget>

namespace attnlab::ui {

// A beam search's finished hypotheses as a tree of shared prefixes: a node per word with its
// probability, a leaf (<eos>) per hypothesis with its score (log P / lp) and its index, the kept one's path in
// bold. Choosing a leaf emits hypothesisChosen, so the explorer can draw that hypothesis' own alignment.
class BeamTree : public QTreeWidget {
    Q_OBJECT
public:
    explicit BeamTree(QWidget* parent = nullptr);
    void setTranslation(const Translation& translation); // greedy or forced: a line saying there is no beam

signals:
    void hypothesisChosen(int index);
};

} // namespace attnlab::ui
