#include "ui/runs/SavedFilters.h"

#include <QSettings>

#include <algorithm>
#include <utility>

namespace attnlab::ui {
namespace {

// QSettings keys cannot hold '/' or '\\' (they separate groups), and INI files fold case on some systems;
// names are therefore values of an array, not keys.
struct Entry {
    QString name, query;
};

QList<Entry> readAll(const QString& group)
{
    QSettings settings;
    QList<Entry> entries;
    const int n = settings.beginReadArray(group);
    for (int i = 0; i < n; ++i) {
        settings.setArrayIndex(i);
        Entry e{settings.value(QStringLiteral("name")).toString(), settings.value(QStringLiteral("query")).toString()};
        if (!e.name.isEmpty())
            entries << e;
    }
    settings.endArray();
    return entries;
}

void writeAll(const QString& group, QList<Entry> entries)
{
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.name.compare(b.name, Qt::CaseInsensitive) < 0; });
    QSettings settings;
    settings.remove(group);
    settings.beginWriteArray(group, static_cast<int>(entries.size()));
    for (int i = 0; i < entries.size(); ++i) {
        settings.setArrayIndex(i);
        settings.setValue(QStringLiteral("name"), entries[i].name);
        settings.setValue(QStringLiteral("query"), entries[i].query);
    }
    settings.endArray();
}

} // namespace

SavedFilters::SavedFilters(QString settingsGroup) : group_(std::move(settingsGroup)) {}

QStringList SavedFilters::names() const
{
    QStringList names;
    for (const Entry& e : readAll(group_))
        names << e.name;
    std::sort(names.begin(), names.end(), [](const QString& a, const QString& b) {
        return a.compare(b, Qt::CaseInsensitive) < 0;
    });
    return names;
}

QString SavedFilters::query(const QString& name) const
{
    for (const Entry& e : readAll(group_))
        if (e.name == name)
            return e.query;
    return {};
}

bool SavedFilters::contains(const QString& name) const
{
    return names().contains(name);
}

void SavedFilters::save(const QString& name, const QString& query)
{
    QList<Entry> entries = readAll(group_);
    entries.removeIf([&](const Entry& e) { return e.name == name; });
    entries << Entry{name, query};
    writeAll(group_, std::move(entries));
}

bool SavedFilters::remove(const QString& name)
{
    QList<Entry> entries = readAll(group_);
    if (entries.removeIf([&](const Entry& e) { return e.name == name; }) == 0)
        return false;
    writeAll(group_, std::move(entries));
    return true;
}

} // namespace attnlab::ui
