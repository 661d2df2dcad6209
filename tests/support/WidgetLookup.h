#pragma once
// The ui tests reach a window's parts by their object names, as a user reaches them by their labels: the
// classes need no getters that only tests call.
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QString>

// The one T named `name` below `parent` (any depth). None, or two, is a renamed or duplicated widget: the
// test cannot go on, so it stops there with the name rather than crash later on a null pointer.
template <class T>
T* child(const QObject* parent, const char* name)
{
    const QList<T*> found = parent->findChildren<T*>(QLatin1String(name));
    if (found.size() != 1)
        qFatal("%lld %s named \"%s\" under \"%s\" (expected one)", static_cast<long long>(found.size()),
               T::staticMetaObject.className(), name, qPrintable(parent->objectName()));
    return found.first();
}
