#include "ui/runs/RunFilterQuery.h"

#include <QCoreApplication>

#include <utility>

namespace attnlab::ui {
namespace {

struct FieldName {
    const char* name;
    RunFilterQuery::Field field;
};

// Singular and plural both work: "tag=thesis" reads better, "tags:" is the column's name.
constexpr FieldName kFields[] = {
    {"id", RunFilterQuery::Field::Id},         {"name", RunFilterQuery::Field::Name},
    {"started", RunFilterQuery::Field::Started}, {"dataset", RunFilterQuery::Field::Dataset},
    {"model", RunFilterQuery::Field::Model},   {"position", RunFilterQuery::Field::Position},
    {"status", RunFilterQuery::Field::Status}, {"dev", RunFilterQuery::Field::Dev},
    {"test", RunFilterQuery::Field::Test},     {"device", RunFilterQuery::Field::Device},
    {"steps", RunFilterQuery::Field::Steps},   {"seconds", RunFilterQuery::Field::Seconds},
    {"tag", RunFilterQuery::Field::Tags},      {"tags", RunFilterQuery::Field::Tags},
    {"notes", RunFilterQuery::Field::Notes},   {"note", RunFilterQuery::Field::Notes},
};

// Splits at spaces outside double quotes; the quotes themselves are dropped.
QStringList splitTerms(const QString& text)
{
    QStringList terms;
    QString current;
    bool quoted = false;
    for (const QChar c : text) {
        if (c == QLatin1Char('"'))
            quoted = !quoted;
        else if (c.isSpace() && !quoted) {
            if (!current.isEmpty())
                terms << std::exchange(current, {});
        } else
            current += c;
    }
    if (!current.isEmpty())
        terms << current;
    return terms;
}

// The operator right after a field name: the longest of >= <= != first.
bool readOperator(const QString& term, qsizetype at, RunFilterQuery::Op& op, qsizetype& length)
{
    using Op = RunFilterQuery::Op;
    const QStringView rest = QStringView(term).mid(at);
    const std::pair<const char*, Op> ops[] = {{">=", Op::GreaterOrEqual}, {"<=", Op::LessOrEqual},
                                              {"!=", Op::NotEqual},       {":", Op::Contains},
                                              {"=", Op::Equal},           {">", Op::Greater},
                                              {"<", Op::Less}};
    for (const auto& [symbol, value] : ops)
        if (rest.startsWith(QLatin1String(symbol))) {
            op = value;
            length = static_cast<qsizetype>(qstrlen(symbol));
            return true;
        }
    return false;
}

} // namespace

bool RunFilterQuery::isNumeric(Field field)
{
    return field == Field::Id || field == Field::Dev || field == Field::Test || field == Field::Steps ||
           field == Field::Seconds;
}

QStringList RunFilterQuery::fieldNames()
{
    QStringList names;
    for (const FieldName& f : kFields)
        names << QLatin1String(f.name);
    return names;
}

RunFilterQuery RunFilterQuery::parse(const QString& text)
{
    RunFilterQuery query;
    const QStringList parts = splitTerms(text);
    query.source_ = parts.join(QLatin1Char(' '));
    for (QString part : parts) {
        Term term;
        if (part.startsWith(QLatin1Char('-')) && part.size() > 1) {
            term.negated = true;
            part.remove(0, 1);
        }
        // A field name is letters only: "12:30" stays a plain word, but "lr=0.1" names a field, and an
        // unknown one is an error rather than a silent search for the text.
        qsizetype nameEnd = 0;
        while (nameEnd < part.size() && part.at(nameEnd).isLetter())
            ++nameEnd;
        Op op = Op::Contains;
        qsizetype opLength = 0;
        if (nameEnd > 0 && readOperator(part, nameEnd, op, opLength)) {
            const QString name = part.left(nameEnd).toLower();
            bool known = false;
            for (const FieldName& f : kFields)
                if (name == QLatin1String(f.name)) {
                    term.field = f.field;
                    known = true;
                }
            if (!known) {
                query.error_ = tr("unknown field \"%1\" in \"%2\"; fields: %3")
                                   .arg(name, part, fieldNames().join(QStringLiteral(", ")));
                query.terms_.clear();
                return query;
            }
            term.op = op;
            term.text = part.mid(nameEnd + opLength).toLower();
            if (isNumeric(term.field)) {
                bool ok = false;
                term.number = term.text.toDouble(&ok);
                if (!ok) {
                    query.error_ = tr("\"%1\" compares %2 with \"%3\", which is not a number")
                                       .arg(part, name, term.text);
                    query.terms_.clear();
                    return query;
                }
                if (term.op == Op::Contains)
                    term.op = Op::Equal; // "id:12" means the run numbered 12
            }
        } else {
            term.text = part.toLower();
        }
        query.terms_.push_back(std::move(term));
    }
    return query;
}

bool RunFilterQuery::holdsForText(const Term& term, const QString& value)
{
    bool holds = false;
    switch (term.op) {
    case Op::Contains: holds = value.contains(term.text); break;
    case Op::Equal: holds = value == term.text; break;
    case Op::NotEqual: holds = value != term.text; break;
    case Op::Less: holds = value < term.text; break;
    case Op::LessOrEqual: holds = value <= term.text; break;
    case Op::Greater: holds = value > term.text; break;
    case Op::GreaterOrEqual: holds = value >= term.text; break;
    }
    return holds != term.negated;
}

bool RunFilterQuery::holdsForNumber(const Term& term, bool hasNumber, double value)
{
    bool holds = false;
    if (hasNumber) {
        const double n = term.number;
        switch (term.op) {
        case Op::Contains:
        case Op::Equal: holds = value == n; break;
        case Op::NotEqual: holds = value != n; break;
        case Op::Less: holds = value < n; break;
        case Op::LessOrEqual: holds = value <= n; break;
        case Op::Greater: holds = value > n; break;
        case Op::GreaterOrEqual: holds = value >= n; break;
        }
    }
    return holds != term.negated;
}

} // namespace attnlab::ui
