#pragma once
#include <QAbstractButton>
#include <QImage>

#include <vector>

namespace attnlab::ui {

// One attention map drawn small: a square of cells (rows x columns, white to dark blue, scaled to the
// map's largest weight as the big heatmap is) under a caption; a button, so it can be clicked and
// reached by keyboard. Painted from a QImage, not a plot: a 4 x 4 grid of them redraws in microseconds.
class AttentionThumbnail : public QAbstractButton {
    Q_OBJECT
public:
    AttentionThumbnail(const QString& caption, int rows, int columns, const std::vector<float>& values,
                       QWidget* parent = nullptr);
    QSize sizeHint() const override;
    const QImage& image() const { return image_; }
    // The map's square, 76 unless a pane needs them smaller (the Training tab's grid); below kCaptionedSide the
    // caption is left to the tooltip and the grid's headers, so a row is the map's height alone.
    void setSide(int pixels);
    bool captionShown() const { return side_ >= kCaptionedSide; }
    static constexpr int kCaptionedSide = 48;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QImage image_;
    int side_ = 76;
};

} // namespace attnlab::ui
