#pragma once
#include <QFont>
#include <QObject>
#include <QPalette>

class QMainWindow;
class QWidget;

namespace attnlab::ui {

// Presentation mode for a class in front of a projector: the window full screen, every font and every
// plot's text and lines scaled by a zoom factor, a high-contrast palette derived from the system's (dark
// stays dark), and the widgets the caller names (the designer) hidden. Leaving restores all of it.
class PresentationMode : public QObject {
    Q_OBJECT
public:
    explicit PresentationMode(QMainWindow* window);

    bool isActive() const { return active_; }
    double zoom() const { return zoom_; }
    // The factor for fonts and plot lines (1.0-3.0; QSettings "presentation/zoom", default 1.5). While
    // active the window is rescaled at once.
    void setZoom(double zoom);
    void setHidden(const QList<QWidget*>& widgets) { hidden_ = widgets; }
    // A palette with the system's light or dark direction and full contrast.
    static QPalette highContrast(const QPalette& system);

public slots:
    void setActive(bool active);
    void toggle() { setActive(!active_); }
    void zoomIn() { setZoom(zoom_ + 0.25); }
    void zoomOut() { setZoom(zoom_ - 0.25); }
    // Plots created while presenting (a new run's heatmaps) get the same scale.
    void rescalePlots();

signals:
    void activeChanged(bool active);

private:
    void apply(double factor);

    QMainWindow* window_;
    bool active_ = false;
    bool wasMaximized_ = false;
    double zoom_ = 1.5;
    double applied_ = 1.0; // the factor the plots carry now
    QFont font_;
    QPalette palette_;
    QList<QWidget*> hidden_;
    QList<QWidget*> hiddenByUs_;
};

} // namespace attnlab::ui
