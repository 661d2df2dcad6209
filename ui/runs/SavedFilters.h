#pragma once
#include <QString>
#include <QStringList>

namespace attnlab::ui {

// Run-list filters the user named, kept in QSettings so they outlive the session and the database: an
// analyst's "thesis SST runs" or "failed this week" is a question asked again, not retyped.
class SavedFilters {
public:
    explicit SavedFilters(QString settingsGroup = QStringLiteral("runList/savedFilters"));

    QStringList names() const; // sorted, case-insensitively
    QString query(const QString& name) const; // empty when there is no such filter
    bool contains(const QString& name) const;
    void save(const QString& name, const QString& query); // replaces one of the same name
    bool remove(const QString& name);

private:
    QString group_;
};

} // namespace attnlab::ui
