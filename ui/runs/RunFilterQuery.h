#pragma once
#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <vector>

namespace attnlab::ui {

// The run list's filter, parsed once per keystroke rather than once per row. A query is terms separated by
// spaces, all of which must hold; "double quotes" keep spaces inside one term and a leading '-' negates it:
//   ssan rpr                  words found anywhere in the row (id, name, dataset, model, ... tags, notes)
//   model:ssan                the field contains the text      model=ssan   the field is exactly it
//   test>45  dev<=0.05        numbers compared (id, dev, test, steps, seconds)
//   started>=2026-11-01       text fields compare as text, so ISO dates compare as dates
//   tag=thesis  -status:failed
// A term that names an unknown field or compares a number with a non-number makes the query invalid, and
// error() says which term and why: a filter that silently matched nothing would read as "no such runs".
class RunFilterQuery {
    Q_DECLARE_TR_FUNCTIONS(RunFilterQuery)

public:
    enum class Field { Any, Id, Name, Started, Dataset, Model, Position, Status, Dev, Test, Device, Steps, Seconds,
                       Tags, Notes };
    enum class Op { Contains, Equal, NotEqual, Less, LessOrEqual, Greater, GreaterOrEqual };
    struct Term {
        Field field = Field::Any;
        Op op = Op::Contains;
        bool negated = false;
        QString text;        // lower-case
        double number = 0.0; // for numeric fields
    };

    static RunFilterQuery parse(const QString& text);
    static bool isNumeric(Field field);
    // The field names a query may use, for the error message and the tooltip.
    static QStringList fieldNames();

    bool isEmpty() const { return terms_.empty(); }
    bool isValid() const { return error_.isEmpty(); }
    const QString& error() const { return error_; }
    const std::vector<Term>& terms() const { return terms_; }
    bool operator==(const RunFilterQuery& other) const { return source_ == other.source_; }

    // The term's truth for one value of its field: text already lower-case, or a number (hasNumber false when
    // the run has no such figure, which no comparison matches).
    static bool holdsForText(const Term& term, const QString& lowerCaseValue);
    static bool holdsForNumber(const Term& term, bool hasNumber, double value);

private:
    QString source_; // normalised: terms joined by one space
    QString error_;
    std::vector<Term> terms_;
};

} // namespace attnlab::ui
