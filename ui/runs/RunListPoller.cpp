#include "ui/runs/RunListPoller.h"

#include "core/store/RunStore.h"

#include <QTimer>

#include <exception>

namespace attnlab::ui {

RunListPoller::RunListPoller(QObject* parent) : QObject(parent), timer_(new QTimer(this))
{
    timer_->setInterval(kIntervalMs);
    connect(timer_, &QTimer::timeout, this, &RunListPoller::poll);
}

void RunListPoller::setStore(const RunStore* store)
{
    store_ = store;
    listed();
    if (store_)
        timer_->start();
    else
        timer_->stop();
}

void RunListPoller::listed()
{
    if (!store_)
        return;
    try {
        shown_ = store_->listState();
    } catch (const std::exception&) { // locked or gone: the next poll tries again, the refresh says why
    }
}

bool RunListPoller::poll()
{
    if (!store_)
        return false;
    try {
        if (store_->listState() == shown_)
            return false;
    } catch (const std::exception&) { // busy past the timeout (a long write elsewhere): next time
        return false;
    }
    emit runsChanged(); // the refresh it causes calls listed()
    return true;
}

} // namespace attnlab::ui
