#pragma once
#include <QWidget>

#include <string>
#include <vector>

namespace attnlab::ui {

// The text itself shaded by attention, as BertViz's and Transformer Explainer's text views show it: every token
// written out (a space as ␣, a line end as ↵, a tab as →) and wrapped like a paragraph, each shaded by the weight
// the chosen query token gives it, relative to that row's largest weight (the heatmap's colours). Hover a token to
// read its row, click to keep it. Self-attention (the queries are the keys) is one text; an alignment (target
// words over source words) is two: the queries to choose from, then the keys shaded. A single row (pooling, the
// writing view's last token) has no choice. Keys a causal model cannot see (weight 0 after the query) are greyed.
// Object name attentionText.
class AttentionText : public QWidget {
    Q_OBJECT
public:
    explicit AttentionText(QWidget* parent = nullptr);

    // weights: queries.size() x keys.size(), row-major. Keeps the chosen query where it still exists.
    void setMatrix(std::vector<std::string> queries, std::vector<std::string> keys, std::vector<float> weights);
    // One row over the keys: `query` names whose attention it is ("the last token drawn").
    void setRow(const QString& query, std::vector<std::string> keys, std::vector<float> weights);
    void clear();

    void chooseQuery(int row); // kept until another is clicked
    int chosenQuery() const { return chosen_; }
    int shownQuery() const; // the hovered one while the mouse is over a query, else the chosen one
    // Each key's shade as drawn, in [0, 1]: its weight over the shown row's largest; -1 for a key the query cannot
    // see. And the tokens as written (tests, the tooltips).
    std::vector<double> shades() const;
    QString keyText(int index) const;
    QString queryText(int index) const;
    QString caption() const;
    bool selfAttention() const { return self_; }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void queryChosen(int row);  // clicked
    void queryHovered(int row); // -1 when the mouse leaves the queries

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override; // tooltips: a key's weight

private:
    // Where each token's box falls at a width: the queries' line (alignment only), then the keys'.
    struct Layout {
        std::vector<QRect> queries, keys;
        int keysTop = 0, height = 0;
    };
    Layout layoutFor(int width) const;
    int queryAt(const QPoint& at) const;
    int keyAt(const QPoint& at) const;
    int gap() const; // between boxes: none inside a word of characters or pieces, a space between words
    float weight(int query, int key) const;
    QFont tokenFont() const;
    int captionHeight(int width) const; // the caption wrapped to the width

    std::vector<std::string> queries_, keys_;
    std::vector<float> weights_;
    QString rowName_; // setRow's query
    bool self_ = false;
    int chosen_ = -1, hovered_ = -1;
};

} // namespace attnlab::ui
