// The import dialog for the user's own CSV/TSV, driven through its widgets as a user drives it (offscreen):
// split sizes of a good file, a short row and invalid UTF-8 named by file:line with Import disabled, stray
// quotes in a TSV (one row per line with quoting auto; with quoting on, the line where the quoted field
// starts and how many lines it spans), missing cells in a series (an error by default, filled and counted
// with interpolate), and column roles chosen by clicking a column header.
#include "core/data/CsvPreview.h"
#include "tests/support/WidgetLookup.h"
#include "ui/setup/DataImportDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace attnlab;
using namespace attnlab::ui;

class TestImportDialog : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

    QString write(const char* name, const QByteArray& bytes)
    {
        const QString path = dir_.filePath(QLatin1String(name));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) qFatal("cannot write %s", qPrintable(path));
        f.write(bytes);
        return path;
    }

    // n reviews with labels pos/neg alternating, under a header.
    static QByteArray reviews(int n)
    {
        QByteArray text = "review\tsentiment\n";
        for (int i = 0; i < n; ++i)
            text += QByteArray("review number ") + QByteArray::number(i) + (i % 2 ? " was dull\tneg\n" : " was great fun\tpos\n");
        return text;
    }

    static bool settle(DataImportDialog& d)
    {
        // Each change waits for the pause, then a worker: wait until the latest preview is on screen.
        return QTest::qWaitFor([&] { return !d.isBusy(); }, 15000);
    }
    static QPushButton* okButton(DataImportDialog& d)
    {
        return child<QDialogButtonBox>(&d, "importButtons")->button(QDialogButtonBox::Ok);
    }
    static QString counts(DataImportDialog& d) { return child<QLabel>(&d, "importCountsLabel")->text(); }
    static QStringList problems(DataImportDialog& d)
    {
        QStringList out;
        auto* list = child<QListWidget>(&d, "importProblemsList");
        for (int i = 0; i < list->count(); ++i) out << list->item(i)->text();
        return out;
    }
    static void choose(DataImportDialog& d, const char* comboName, const QVariant& data)
    {
        auto* box = child<QComboBox>(&d, comboName);
        const int i = box->findData(data);
        if (i < 0) qFatal("%s has no item %s", comboName, qPrintable(data.toString()));
        box->setCurrentIndex(i);
    }
    static QString headerText(DataImportDialog& d, int column)
    {
        auto* view = child<QTableView>(&d, "importPreviewTable");
        return view->model()->headerData(column, Qt::Horizontal).toString();
    }
    // Picks the role in the role box, then clicks the column's header with the mouse.
    static void clickHeader(DataImportDialog& d, const QString& role, int column)
    {
        auto* roleBox = child<QComboBox>(&d, "importRoleCombo");
        const int i = roleBox->findText(role);
        if (i < 0) qFatal("no role %s", qPrintable(role));
        roleBox->setCurrentIndex(i);
        QHeaderView* header = child<QTableView>(&d, "importPreviewTable")->horizontalHeader();
        const QPoint at(header->sectionViewportPosition(column) + header->sectionSize(column) / 2, header->height() / 2);
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.filePath(QStringLiteral("settings")));
        QCoreApplication::setOrganizationName(QStringLiteral("attnlab-test"));
        QCoreApplication::setApplicationName(QStringLiteral("import-dialog"));
    }

    void goodReviewsSplitAndRoles()
    {
        const QString file = write("reviews.tsv", reviews(40));
        DataImportDialog d;
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        QVERIFY(!okButton(d)->isEnabled()); // no file yet
        child<QComboBox>(&d, "importFileCombo")->setEditText(file);
        QVERIFY(settle(d));
        QVERIFY(d.preview() && d.preview()->loaded);
        // 40 rows: 0.7 -> 28 train, 0.15 -> 6 dev, the remaining 6 test.
        QVERIFY2(counts(d).contains(QStringLiteral("Split: train 28 · dev 6 · test 6 examples")), qPrintable(counts(d)));
        QVERIFY2(counts(d).contains(QStringLiteral("reviews.tsv: 40 rows from 41 lines (one is the header)")), qPrintable(counts(d)));
        QVERIFY(counts(d).contains(QStringLiteral("Classes (2): neg, pos")));
        const QString detected = child<QLabel>(&d, "importDetectedLabel")->text();
        QVERIFY2(detected.contains(QStringLiteral("Delimiter: tab (detected)")) && detected.contains(QStringLiteral("header row: yes (detected)")) &&
                     detected.contains(QStringLiteral("double quotes are text (auto: tab-separated)")),
                 qPrintable(detected));
        auto* view = child<QTableView>(&d, "importPreviewTable");
        QCOMPARE(view->model()->rowCount(), 40);
        QCOMPARE(view->model()->data(view->model()->index(1, 0)).toString(), QStringLiteral("review number 1 was dull"));
        QCOMPARE(view->model()->headerData(1, Qt::Vertical).toString(), QStringLiteral("line 3"));
        QCOMPARE(headerText(d, 0), QStringLiteral("review\n[text]"));
        QCOMPARE(headerText(d, 1), QStringLiteral("sentiment\n[label]"));
        QVERIFY(okButton(d)->isEnabled());
        QCOMPARE(problems(d), QStringList{QStringLiteral("No problems found.")});

        // Other fractions change the split the load makes.
        child<QDoubleSpinBox>(&d, "importTrainFractionSpin")->setValue(0.5);
        child<QDoubleSpinBox>(&d, "importDevFractionSpin")->setValue(0.25);
        QVERIFY(settle(d));
        QVERIFY2(counts(d).contains(QStringLiteral("Split: train 20 · dev 10 · test 10 examples")), qPrintable(counts(d)));

        QDir().mkpath(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots"));
        QVERIFY(d.grab().save(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots/import-dialog.png")));

        QTest::mouseClick(okButton(d), Qt::LeftButton);
        QCOMPARE(d.result(), int(QDialog::Accepted));
        QCOMPARE(d.datasetId(), QStringLiteral("csv-text"));
        const DatasetOptions o = d.options();
        QCOMPARE(QString::fromStdString(o.file), file);
        QCOMPARE(o.trainFraction, 0.5);
        QVERIFY(o.textColumn.empty() && o.labelColumn.empty()); // the defaults were right: nothing clicked
        QCOMPARE(DataImportDialog::recentFiles().value(0), QFileInfo(file).absoluteFilePath());
    }

    void separateFiles()
    {
        const QString train = write("train.tsv", reviews(10)), dev = write("dev.tsv", reviews(3)), test = write("test.tsv", reviews(4));
        DataImportDialog d;
        child<QCheckBox>(&d, "importSeparateFilesCheck")->setChecked(true);
        child<QLineEdit>(&d, "importTrainFileEdit")->setText(train);
        child<QLineEdit>(&d, "importDevFileEdit")->setText(dev);
        child<QLineEdit>(&d, "importTestFileEdit")->setText(test);
        QVERIFY(settle(d));
        QVERIFY2(counts(d).contains(QStringLiteral("Split: train 10 · dev 3 · test 4 examples")), qPrintable(counts(d)));
        QVERIFY(counts(d).contains(QStringLiteral("dev.tsv: 3 rows from 4 lines")));
        QVERIFY(okButton(d)->isEnabled());
        const DatasetOptions o = d.options();
        QCOMPARE(QString::fromStdString(o.devFile), dev);
        QVERIFY(o.file.empty());
    }

    void shortRowNamedAndImportDisabled()
    {
        const QString file = write("short.csv", "text,label\ngood film,pos\nbad film,neg\nno label here\nfine,pos\n");
        DataImportDialog d;
        d.setFile(file);
        QVERIFY(settle(d));
        QVERIFY(!okButton(d)->isEnabled());
        const QStringList p = problems(d);
        QVERIFY2(p.value(0) == QStringLiteral("Error: %1:4: short row: 1 fields, expected 2 (delimiter ',')").arg(file), qPrintable(p.join('\n')));
        QVERIFY(counts(d).contains(QStringLiteral("Cannot be imported as it is")));
        // The rows before the line at fault are still shown.
        QCOMPARE(child<QTableView>(&d, "importPreviewTable")->model()->rowCount(), 2);
        QVERIFY(!d.preview()->loaded);
        QVERIFY(d.preview()->hasError());
        QCOMPARE(d.preview()->problems.front().line, 4);
    }

    void invalidUtf8NamedWithItsLine()
    {
        const QString file = write("latin1.tsv", "text\tlabel\nok\tpos\nfine\tneg\ncaf\xe9 au lait\tpos\n");
        DataImportDialog d;
        d.setFile(file);
        QVERIFY(settle(d));
        QVERIFY(!okButton(d)->isEnabled());
        QVERIFY2(problems(d).value(0) == QStringLiteral("Error: %1:4: invalid UTF-8 (save the file as UTF-8)").arg(file),
                 qPrintable(problems(d).join('\n')));
    }

    void strayQuotesInTsv()
    {
        // 12 reviews under a header; those on lines 3 and 8 start with a quote that is part of the text.
        QByteArray text = "text\tlabel\n";
        for (int line = 2; line <= 13; ++line)
            text += (line == 3 || line == 8 ? QByteArray("\"Best\" film ") : QByteArray("a film ")) + QByteArray::number(line) +
                    (line % 2 ? "\tpos\n" : "\tneg\n");
        const QString file = write("stray.tsv", text);
        DataImportDialog d;
        d.setFile(file);
        QVERIFY(settle(d));
        // auto = off for tab-separated: one row per line, the quotes kept as text.
        QVERIFY2(counts(d).contains(QStringLiteral("stray.tsv: 12 rows from 13 lines (one is the header)")), qPrintable(counts(d)));
        QVERIFY(!counts(d).contains(QStringLiteral("fewer rows")));
        QCOMPARE(child<QTableView>(&d, "importPreviewTable")->model()->data(child<QTableView>(&d, "importPreviewTable")->model()->index(1, 0)).toString(),
                 QStringLiteral("\"Best\" film 3"));
        QVERIFY(okButton(d)->isEnabled());

        // Quoting on: the quote on line 3 wraps "Best", closes, and the row reads on normally; the one on
        // line 8 does too. Make one that swallows lines: a review that is only an opening quote.
        QByteArray swallowing = "text\tlabel\n";
        for (int line = 2; line <= 13; ++line)
            swallowing += (line == 4 ? QByteArray("\"Best film ") : line == 9 ? QByteArray("ends\" here ") : QByteArray("a film ")) +
                          QByteArray::number(line) + (line % 2 ? "\tpos\n" : "\tneg\n");
        const QString merged = write("swallow.tsv", swallowing);
        d.setFile(merged);
        QVERIFY(settle(d));
        QVERIFY2(counts(d).contains(QStringLiteral("swallow.tsv: 12 rows from 13 lines")), qPrintable(counts(d)));
        choose(d, "importQuotingCombo", QStringLiteral("on"));
        QVERIFY(settle(d));
        // Lines 4..9 became one field: 12 - 5 = 7 rows, and the dialog says why and where.
        QVERIFY2(counts(d).contains(QStringLiteral("swallow.tsv: 7 rows from 13 lines (one is the header) — fewer rows than lines because "
                                                   "1 quoted field spans several lines")),
                 qPrintable(counts(d)));
        QVERIFY2(problems(d).contains(QStringLiteral("Note: %1:4: a quoted field starts here and spans 6 lines").arg(merged)),
                 qPrintable(problems(d).join('\n')));
        QCOMPARE(child<QTableView>(&d, "importPreviewTable")->model()->rowCount(), 7);
        const QString detected = child<QLabel>(&d, "importDetectedLabel")->text();
        QVERIFY2(detected.contains(QStringLiteral("double quotes wrap fields")), qPrintable(detected));
        QDir().mkpath(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots"));
        QVERIFY(d.grab().save(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots/import-dialog-quotes.png")));
    }

    void seriesMissingCells()
    {
        QByteArray text = "step,x,y\n";
        for (int line = 2; line <= 61; ++line) {
            const QByteArray x = line == 10 ? QByteArray() : QByteArray::number(line % 7);
            const QByteArray y = line == 6 ? QByteArray("NA") : line == 20 ? QByteArray("N/A") : QByteArray::number(line * 0.5);
            text += QByteArray::number(line - 1) + "," + x + "," + y + "\n";
        }
        const QString file = write("series.csv", text);
        DataImportDialog d;
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        choose(d, "importTaskCombo", QStringLiteral("csv-series"));
        d.setFile(file);
        QVERIFY(settle(d));
        // No target yet: the load says so.
        QVERIFY2(problems(d).value(0).contains(QStringLiteral("setting target column: name the column to predict")), qPrintable(problems(d).join('\n')));
        QVERIFY(!okButton(d)->isEnabled());

        clickHeader(d, QStringLiteral("target"), 2);
        QVERIFY(settle(d));
        QCOMPARE(QString::fromStdString(d.options().targetColumn), QStringLiteral("y"));
        QCOMPARE(headerText(d, 2), QStringLiteral("y\n[target]"));
        // error, the default: the first missing cell, y's NA on line 6.
        QVERIFY2(problems(d).value(0).startsWith(QStringLiteral("Error: %1:6: column 'y': missing value 'NA' (set missing values to").arg(file)), qPrintable(problems(d).join('\n')));
        QVERIFY(!okButton(d)->isEnabled());

        choose(d, "importMissingCombo", QStringLiteral("interpolate"));
        QVERIFY(settle(d));
        QVERIFY(okButton(d)->isEnabled());
        QVERIFY2(counts(d).contains(QStringLiteral("Missing cells: 3 in 3 rows filled (interpolate)")), qPrintable(counts(d)));
        QVERIFY(problems(d).contains(QStringLiteral("Note: %1: 3 missing cells in 3 rows filled by linear interpolation").arg(file)));
        // 60 rows, window 10: 42 train rows, 9 dev, 9 test, in windows as SeriesWindowBuilder cuts them.
        QCOMPARE(d.preview()->drivers, (std::vector<std::string>{"step", "x"}));
        QVERIFY(d.preview()->train > 0 && d.preview()->dev > 0 && d.preview()->test > 0);
        QVERIFY2(counts(d).contains(QStringLiteral("Split: train %1 · dev %2 · test %3 windows")
                                        .arg(d.preview()->train).arg(d.preview()->dev).arg(d.preview()->test)),
                 qPrintable(counts(d)));

        // Ignoring a column leaves it out of the drivers.
        clickHeader(d, QStringLiteral("ignored column"), 0);
        QVERIFY(settle(d));
        QCOMPARE(d.options().driverColumns, std::vector<std::string>{"x"});
        QCOMPARE(headerText(d, 0), QStringLiteral("step\n[ignored]"));
        QCOMPARE(headerText(d, 1), QStringLiteral("x\n[driver]"));
        QVERIFY(counts(d).contains(QStringLiteral("Driving series (1): x")));
        QVERIFY(okButton(d)->isEnabled());
    }

    void clickingHeadersAssignsTextAndLabel()
    {
        QByteArray text = "id\treview\tsentiment\tstars\n";
        for (int i = 0; i < 30; ++i)
            text += QByteArray::number(i) + "\tthe film was " + (i % 3 ? "good" : "bad") + "\t" + (i % 3 ? "pos" : "neg") + "\t" +
                    QByteArray::number(i % 5 + 1) + "\n";
        const QString file = write("columns.tsv", text);
        DataImportDialog d;
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        d.setFile(file);
        QVERIFY(settle(d));
        // Defaults: the last column is the label (five star classes), the first text column the text.
        QCOMPARE(headerText(d, 1), QStringLiteral("review\n[text]"));
        QCOMPARE(headerText(d, 3), QStringLiteral("stars\n[label]"));
        QVERIFY2(counts(d).contains(QStringLiteral("Classes (5): 1, 2, 3, 4, 5")), qPrintable(counts(d)));

        clickHeader(d, QStringLiteral("label"), 2);
        QVERIFY(settle(d));
        QCOMPARE(QString::fromStdString(d.options().labelColumn), QStringLiteral("sentiment"));
        QCOMPARE(headerText(d, 2), QStringLiteral("sentiment\n[label]"));
        QCOMPARE(headerText(d, 3), QStringLiteral("stars"));
        QVERIFY2(counts(d).contains(QStringLiteral("Classes (2): neg, pos")), qPrintable(counts(d)));

        // Text from the id column: numbers, but the user's choice.
        clickHeader(d, QStringLiteral("text"), 0);
        QVERIFY(settle(d));
        QCOMPARE(QString::fromStdString(d.options().textColumn), QStringLiteral("id"));
        QCOMPARE(headerText(d, 0), QStringLiteral("id\n[text]"));
        QCOMPARE(headerText(d, 1), QStringLiteral("review"));
        QVERIFY(okButton(d)->isEnabled());

        // A new delimiter forgets the clicks (the columns may be others).
        choose(d, "importDelimiterCombo", int('\t'));
        QVERIFY(settle(d));
        QVERIFY(d.options().textColumn.empty() && d.options().labelColumn.empty());
    }
};

QTEST_MAIN(TestImportDialog)
#include "test_import_dialog.moc"
