#include "ui/setup/DataImportDialog.h"

#include "ui/StdStrings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace attnlab::ui {
namespace {

const char* const kRecentFilesKey = "import/recentFiles";

QComboBox* combo(const char* name, const QList<QPair<QString, QVariant>>& items)
{
    auto* box = new QComboBox;
    box->setObjectName(QLatin1String(name));
    for (const auto& [text, data] : items) box->addItem(text, data);
    return box;
}

void selectData(QComboBox* box, const QVariant& data)
{
    const int i = box->findData(data);
    if (i >= 0) box->setCurrentIndex(i);
}

} // namespace

DataImportDialog::DataImportDialog(QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("dataImportDialog"));
    setWindowTitle(tr("Import your own data"));
    debounce_.setSingleShot(true);
    debounce_.setInterval(kDebounceMs);
    connect(&debounce_, &QTimer::timeout, this, &DataImportDialog::startPreview);
    previewing_ = new LatestRequestRunner(this);
    connect(previewing_, &LatestRequestRunner::failed, this, [this](const QString& error) {
        preview_.reset();
        busy_ = false;
        counts_->setText(tr("Cannot read the data: %1").arg(error));
        updateOk();
        emit previewUpdated();
    });
    buildWidgets();
    restoreSettings();
    taskChanged();
}

DataImportDialog::~DataImportDialog() = default; // a preview still computing is waited for by its runner

void DataImportDialog::buildWidgets()
{
    auto* layout = new QVBoxLayout(this);
    form_ = new QFormLayout;
    form_->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    layout->addLayout(form_);

    task_ = combo("importTaskCombo", {{tr("Text classification"), QStringLiteral("csv-text")},
                                      {tr("Time series"), QStringLiteral("csv-series")},
                                      {tr("Translation (sentence pairs)"), QStringLiteral("csv-pairs")}});
    task_->setToolTip(tr("Text: a column of text and a column of labels. Time series: rows in time order, a "
                         "target column to predict and driving columns. Translation: a column of source sentences "
                         "and a column of their translations."));
    form_->addRow(tr("Task:"), task_);

    // One file split by fractions, or one file per split.
    file_ = new QComboBox;
    file_->setObjectName(QStringLiteral("importFileCombo"));
    file_->setEditable(true);
    file_->setInsertPolicy(QComboBox::NoInsert);
    file_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    file_->setMinimumContentsLength(40);
    file_->lineEdit()->setPlaceholderText(tr("A CSV or TSV file (recent files in the list)"));
    auto* browseFile = new QPushButton(tr("Browse…"));
    browseFile->setObjectName(QStringLiteral("importBrowseButton"));
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(file_, 1);
    fileRow->addWidget(browseFile);
    form_->addRow(tr("File:"), fileRow);
    connect(browseFile, &QPushButton::clicked, this, [this] {
        if (const QString path = browse(file_->currentText()); !path.isEmpty()) file_->setEditText(path);
    });
    connect(file_, &QComboBox::editTextChanged, this, &DataImportDialog::layoutChanged);

    separate_ = new QCheckBox(tr("Separate train, dev and test files"));
    separate_->setObjectName(QStringLiteral("importSeparateFilesCheck"));
    form_->addRow(QString(), separate_);
    splitFiles_ = new QWidget;
    auto* splitLayout = new QFormLayout(splitFiles_);
    splitLayout->setContentsMargins(0, 0, 0, 0);
    auto fileEdit = [&](const char* name, const QString& label) {
        auto* edit = new QLineEdit;
        edit->setObjectName(QLatin1String(name));
        auto* button = new QPushButton(tr("Browse…"));
        auto* row = new QHBoxLayout;
        row->addWidget(edit, 1);
        row->addWidget(button);
        splitLayout->addRow(label, row);
        connect(button, &QPushButton::clicked, this, [this, edit] {
            if (const QString path = browse(edit->text()); !path.isEmpty()) edit->setText(path);
        });
        connect(edit, &QLineEdit::textChanged, this, &DataImportDialog::layoutChanged);
        return edit;
    };
    trainFile_ = fileEdit("importTrainFileEdit", tr("Train:"));
    devFile_ = fileEdit("importDevFileEdit", tr("Dev:"));
    testFile_ = fileEdit("importTestFileEdit", tr("Test:"));
    form_->addRow(QString(), splitFiles_);

    fractions_ = new QWidget;
    auto* fractionRow = new QHBoxLayout(fractions_);
    fractionRow->setContentsMargins(0, 0, 0, 0);
    auto fraction = [&](const char* name, double value) {
        auto* spin = new QDoubleSpinBox;
        spin->setObjectName(QLatin1String(name));
        spin->setRange(0.01, 0.98);
        spin->setSingleStep(0.05);
        spin->setDecimals(2);
        spin->setValue(value);
        connect(spin, &QDoubleSpinBox::valueChanged, this, &DataImportDialog::schedule);
        return spin;
    };
    trainFraction_ = fraction("importTrainFractionSpin", 0.7);
    devFraction_ = fraction("importDevFractionSpin", 0.15);
    fractionRow->addWidget(new QLabel(tr("train")));
    fractionRow->addWidget(trainFraction_);
    fractionRow->addWidget(new QLabel(tr("dev")));
    fractionRow->addWidget(devFraction_);
    fractionRow->addWidget(new QLabel(tr("test: the rest")));
    fractionRow->addStretch(1);
    form_->addRow(tr("Split:"), fractions_);
    connect(separate_, &QCheckBox::toggled, this, [this](bool separate) {
        form_->setRowVisible(splitFiles_, separate);
        form_->setRowVisible(fractions_, !separate);
        file_->setEnabled(!separate);
        layoutChanged();
    });
    form_->setRowVisible(splitFiles_, false);

    // How the file is read: each "auto" is what CsvTable detects.
    delimiter_ = combo("importDelimiterCombo", {{tr("auto"), 0}, {tr("comma ,"), int(',')}, {tr("tab"), int('\t')},
                                                {tr("semicolon ;"), int(';')}, {tr("bar |"), int('|')}});
    header_ = combo("importHeaderCombo", {{tr("auto"), -1}, {tr("yes"), 1}, {tr("no"), 0}});
    quoting_ = combo("importQuotingCombo", {{tr("auto"), QStringLiteral("auto")}, {tr("on"), QStringLiteral("on")},
                                            {tr("off"), QStringLiteral("off")}});
    quoting_->setToolTip(tr("Do double quotes wrap fields? auto: yes, except in tab-separated files, whose "
                            "quotes are text (a stray quote in a review would swallow the lines after it)."));
    auto* readRow = new QHBoxLayout;
    readRow->addWidget(new QLabel(tr("delimiter")));
    readRow->addWidget(delimiter_);
    readRow->addWidget(new QLabel(tr("header row")));
    readRow->addWidget(header_);
    readRow->addWidget(new QLabel(tr("quoting")));
    readRow->addWidget(quoting_);
    readRow->addStretch(1);
    form_->addRow(tr("Reading:"), readRow);
    for (auto* box : {delimiter_, header_, quoting_})
        connect(box, &QComboBox::currentIndexChanged, this, &DataImportDialog::layoutChanged);

    tokenizer_ = combo("importTokenizerCombo", {{tr("ptb (words and punctuation)"), QStringLiteral("ptb")},
                                                {tr("whitespace"), QStringLiteral("whitespace")},
                                                {tr("tweet (@user, #tag, URLs, emoticons)"), QStringLiteral("tweet")}});
    form_->addRow(tr("Tokenizer:"), tokenizer_);
    missing_ = combo("importMissingCombo", {{tr("error (stop at the first)"), QStringLiteral("error")},
                                            {tr("drop the row"), QStringLiteral("drop")},
                                            {tr("fill with the last value (ffill)"), QStringLiteral("ffill")},
                                            {tr("interpolate linearly"), QStringLiteral("interpolate")}});
    missing_->setToolTip(tr("Empty cells, NA, N/A, NaN, null, None, ?: a filled cell in dev or test becomes a "
                            "target the reported errors are measured against, so filling is your choice."));
    categorical_ = combo("importCategoricalCombo", {{tr("skip text columns"), QStringLiteral("skip")},
                                                    {tr("one-hot encode them"), QStringLiteral("onehot")}});
    window_ = new QSpinBox;
    window_->setObjectName(QStringLiteral("importWindowSpin"));
    window_->setRange(1, 1000);
    window_->setValue(10);
    auto* seriesRow = new QHBoxLayout;
    seriesRow->addWidget(missing_);
    seriesRow->addWidget(categorical_);
    seriesRow->addWidget(new QLabel(tr("window")));
    seriesRow->addWidget(window_);
    seriesRow->addStretch(1);
    form_->addRow(tr("Missing values:"), seriesRow);
    for (auto* box : {tokenizer_, missing_, categorical_})
        connect(box, &QComboBox::currentIndexChanged, this, &DataImportDialog::schedule);
    connect(window_, &QSpinBox::valueChanged, this, &DataImportDialog::schedule);
    connect(task_, &QComboBox::currentIndexChanged, this, &DataImportDialog::taskChanged);

    detected_ = new QLabel;
    detected_->setObjectName(QStringLiteral("importDetectedLabel"));
    detected_->setWordWrap(true);
    layout->addWidget(detected_);

    auto* roleRow = new QHBoxLayout;
    auto* roleLabel = new QLabel(tr("Click a column header to make that column the:"));
    role_ = new QComboBox;
    role_->setObjectName(QStringLiteral("importRoleCombo"));
    roleRow->addWidget(roleLabel);
    roleRow->addWidget(role_);
    roleRow->addStretch(1);
    layout->addLayout(roleRow);

    model_ = new QStandardItemModel(this);
    table_ = new QTableView;
    table_->setObjectName(QStringLiteral("importPreviewTable"));
    table_->setModel(model_);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setWordWrap(false);
    table_->horizontalHeader()->setSectionsClickable(true);
    table_->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    table_->horizontalHeader()->setToolTip(tr("Click a column header to give the column the role chosen above"));
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    table_->setMinimumHeight(220);
    connect(table_->horizontalHeader(), &QHeaderView::sectionClicked, this, &DataImportDialog::headerClicked);
    layout->addWidget(table_, 1);

    counts_ = new QLabel;
    counts_->setObjectName(QStringLiteral("importCountsLabel"));
    counts_->setWordWrap(true);
    counts_->setTextFormat(Qt::RichText);
    counts_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(counts_);

    problems_ = new QListWidget;
    problems_->setObjectName(QStringLiteral("importProblemsList"));
    problems_->setMaximumHeight(110);
    problems_->setWordWrap(true);
    layout->addWidget(problems_);

    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons_->setObjectName(QStringLiteral("importButtons"));
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    connect(buttons_, &QDialogButtonBox::accepted, this, &DataImportDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &DataImportDialog::reject);
    layout->addWidget(buttons_);
    resize(860, 640);
}

QString DataImportDialog::browse(const QString& current)
{
    return QFileDialog::getOpenFileName(this, tr("Choose a CSV or TSV file"), QFileInfo(current).absolutePath(),
                                        tr("Delimited text (*.csv *.tsv *.tab *.txt);;All files (*)"));
}

QStringList DataImportDialog::recentFiles()
{
    return QSettings().value(QLatin1String(kRecentFilesKey)).toStringList().mid(0, kMaxRecentFiles);
}

void DataImportDialog::restoreSettings()
{
    const QSignalBlocker blockFile(file_);
    file_->addItems(recentFiles());
    file_->setCurrentIndex(-1);
    file_->setEditText(QString());
    QSettings s;
    const QSignalBlocker blockTask(task_);
    selectData(task_, s.value(QStringLiteral("import/task"), QStringLiteral("csv-text")));
    const std::pair<QComboBox*, const char*> remembered[] = {{delimiter_, "import/delimiter"}, {header_, "import/header"},
                                                             {quoting_, "import/quoting"}, {tokenizer_, "import/tokenizer"},
                                                             {missing_, "import/missing"}, {categorical_, "import/categorical"}};
    for (const auto& [box, key] : remembered) {
        const QSignalBlocker block(box);
        if (s.contains(QLatin1String(key))) selectData(box, s.value(QLatin1String(key)));
    }
}

void DataImportDialog::saveSettings() const
{
    QSettings s;
    QStringList recent = recentFiles();
    const QString path = separate_->isChecked() ? trainFile_->text() : file_->currentText();
    if (!path.isEmpty()) {
        const QString absolute = QFileInfo(path).absoluteFilePath();
        recent.removeAll(absolute);
        recent.prepend(absolute);
        s.setValue(QLatin1String(kRecentFilesKey), recent.mid(0, kMaxRecentFiles));
    }
    s.setValue(QStringLiteral("import/task"), datasetId());
    s.setValue(QStringLiteral("import/delimiter"), delimiter_->currentData());
    s.setValue(QStringLiteral("import/header"), header_->currentData());
    s.setValue(QStringLiteral("import/quoting"), quoting_->currentData());
    s.setValue(QStringLiteral("import/tokenizer"), tokenizer_->currentData());
    s.setValue(QStringLiteral("import/missing"), missing_->currentData());
    s.setValue(QStringLiteral("import/categorical"), categorical_->currentData());
}

QString DataImportDialog::datasetId() const { return task_->currentData().toString(); }

void DataImportDialog::setDatasetId(const QString& id) { selectData(task_, id); }

void DataImportDialog::setFile(const QString& path)
{
    separate_->setChecked(false);
    file_->setEditText(path);
}

DatasetOptions DataImportDialog::options() const
{
    DatasetOptions o;
    if (separate_->isChecked()) {
        o.trainFile = trainFile_->text().toStdString();
        o.devFile = devFile_->text().toStdString();
        o.testFile = testFile_->text().toStdString();
    } else {
        o.file = file_->currentText().toStdString();
        o.trainFraction = trainFraction_->value();
        o.devFraction = devFraction_->value();
    }
    o.delimiter = static_cast<char>(delimiter_->currentData().toInt());
    o.header = header_->currentData().toInt();
    o.quoting = quoting_->currentData().toString().toStdString();
    const bool series = datasetId() == QLatin1String("csv-series");
    if (datasetId() == QLatin1String("csv-pairs")) { // the sentences' tokens are the designer's (words or pieces)
        o.sourceColumn = sourceColumn_.toStdString();
        o.targetColumn = targetColumn_.toStdString();
        return o;
    }
    if (!series) {
        o.textColumn = textColumn_.toStdString();
        o.labelColumn = labelColumn_.toStdString();
        o.tokenizer = tokenizer_->currentData().toString().toStdString();
        return o;
    }
    o.targetColumn = targetColumn_.toStdString();
    o.missing = missing_->currentData().toString().toStdString();
    o.categorical = categorical_->currentData().toString().toStdString();
    o.window = window_->value();
    // Drivers: every other column as the load picks them (numbers; text too when one-hot encoded), with
    // the user's clicks on top: a driver is always in, an ignored column always out.
    if ((!drivers_.isEmpty() || !ignored_.isEmpty()) && preview_) {
        const bool onehot = o.categorical == "onehot";
        for (std::size_t c = 0; c < preview_->columns.size(); ++c) {
            const QString name = qs(preview_->columns[c]);
            if (name == targetColumn_ || ignored_.contains(name)) continue;
            const bool automatic = c < preview_->textColumns.size() && (!preview_->textColumns[c] || onehot);
            if (drivers_.contains(name) || automatic) o.driverColumns.push_back(name.toStdString());
        }
    }
    return o;
}

void DataImportDialog::taskChanged()
{
    const bool series = datasetId() == QLatin1String("csv-series"), pairs = datasetId() == QLatin1String("csv-pairs");
    form_->setRowVisible(tokenizer_, !series && !pairs);
    // The series row is a layout: find it by its first widget.
    for (int row = 0; row < form_->rowCount(); ++row) {
        auto* field = form_->itemAt(row, QFormLayout::FieldRole);
        if (field && field->layout() && field->layout()->indexOf(missing_) >= 0) form_->setRowVisible(row, series);
    }
    const QSignalBlocker block(role_);
    role_->clear();
    if (series) {
        role_->addItem(tr("target"), int(CsvPreview::Role::Target));
        role_->addItem(tr("driver"), int(CsvPreview::Role::Driver));
        role_->addItem(tr("ignored column"), int(CsvPreview::Role::Ignored));
    } else if (pairs) {
        role_->addItem(tr("source sentences"), int(CsvPreview::Role::Source));
        role_->addItem(tr("target sentences"), int(CsvPreview::Role::Target));
    } else {
        role_->addItem(tr("text"), int(CsvPreview::Role::Text));
        role_->addItem(tr("label"), int(CsvPreview::Role::Label));
    }
    layoutChanged();
}

void DataImportDialog::layoutChanged()
{
    textColumn_.clear();
    labelColumn_.clear();
    targetColumn_.clear();
    sourceColumn_.clear();
    drivers_.clear();
    ignored_.clear();
    schedule();
}

void DataImportDialog::schedule()
{
    busy_ = true;
    updateOk();
    if (!preview_)
        counts_->setText(tr("Reading…"));
    debounce_.start();
}

void DataImportDialog::startPreview()
{
    const std::string id = datasetId().toStdString();
    // While one preview computes, the latest settings wait (and replace any settings waiting before them).
    previewing_->request([this, id, o = options()]() -> LatestRequestRunner::Delivery {
        auto preview = std::make_shared<CsvPreview>(CsvPreview::of(id, o, kPreviewRows));
        return [this, preview] { previewFinished(std::move(*preview)); };
    });
}

void DataImportDialog::previewFinished(CsvPreview preview)
{
    if (debounce_.isActive())
        return; // settings changed meanwhile: that preview replaces this one
    preview_ = std::make_unique<CsvPreview>(std::move(preview));
    busy_ = false;
    showPreview();
    updateOk();
    emit previewUpdated();
}

QString DataImportDialog::roleName(CsvPreview::Role role) const
{
    switch (role) {
    case CsvPreview::Role::Text: return tr("text");
    case CsvPreview::Role::Label: return tr("label");
    case CsvPreview::Role::Target: return tr("target");
    case CsvPreview::Role::Driver: return tr("driver");
    case CsvPreview::Role::Ignored: return tr("ignored");
    case CsvPreview::Role::Source: return tr("source");
    case CsvPreview::Role::None: break;
    }
    return {};
}

void DataImportDialog::showPreview()
{
    const CsvPreview& p = *preview_;
    model_->clear();
    model_->setColumnCount(static_cast<int>(p.columns.size()));
    for (std::size_t c = 0; c < p.columns.size(); ++c) {
        const QString role = c < p.roles.size() ? roleName(p.roles[c]) : QString();
        auto* item = new QStandardItem(role.isEmpty() ? qs(p.columns[c]) : QStringLiteral("%1\n[%2]").arg(qs(p.columns[c]), role));
        if (!role.isEmpty()) {
            QFont bold = item->font();
            bold.setBold(p.roles[c] != CsvPreview::Role::Ignored);
            item->setFont(bold);
        }
        model_->setHorizontalHeaderItem(static_cast<int>(c), item);
    }
    for (std::size_t r = 0; r < p.rows.size(); ++r) {
        QList<QStandardItem*> row;
        for (const auto& field : p.rows[r]) {
            QString text = qs(field);
            auto* item = new QStandardItem(text.left(200).replace(QLatin1Char('\n'), QStringLiteral(" ⏎ ")).replace(QLatin1Char('\t'), QStringLiteral(" ⇥ ")));
            item->setToolTip(text.left(2000));
            row << item;
        }
        model_->appendRow(row);
        model_->setVerticalHeaderItem(static_cast<int>(r), new QStandardItem(tr("line %1").arg(p.rowLines[r])));
    }
    table_->resizeColumnsToContents();
    for (int c = 0; c < model_->columnCount(); ++c)
        table_->setColumnWidth(c, std::min(table_->columnWidth(c), 360));

    // What was detected.
    if (p.tableRead) {
        const bool autoDelimiter = delimiter_->currentData().toInt() == 0;
        const QString delimiter = p.delimiter == '\t' ? tr("tab") : p.delimiter == ',' ? tr("comma")
                                  : p.delimiter == ';' ? tr("semicolon") : p.delimiter == '|' ? tr("bar") : QString(QLatin1Char(p.delimiter));
        const QString quotes = p.quoted ? tr("double quotes wrap fields") : tr("double quotes are text");
        detected_->setText(tr("Delimiter: %1%2 · header row: %3%4 · %5%6")
                               .arg(delimiter, autoDelimiter ? tr(" (detected)") : QString(),
                                    p.hasHeader ? tr("yes") : tr("no"), header_->currentData().toInt() < 0 ? tr(" (detected)") : QString(),
                                    quotes, quoting_->currentData().toString() == QLatin1String("auto")
                                                ? (p.delimiter == '\t' ? tr(" (auto: tab-separated)") : tr(" (auto)"))
                                                : QString()));
    } else {
        detected_->setText(tr("Nothing to show yet: choose a file."));
    }

    // Rows against lines, per file, then the load's split sizes.
    QStringList lines;
    for (const auto& f : p.files) {
        if (f.path.empty()) continue;
        const QString name = QFileInfo(qs(f.path)).fileName().toHtmlEscaped();
        if (!f.read) {
            lines << tr("%1: not read (see the problems below)").arg(name);
            continue;
        }
        const int headerRows = p.hasHeader ? 1 : 0;
        QString line = f.rows == 1 ? tr("%1: 1 row").arg(name) : tr("%1: %2 rows").arg(name, QString::number(f.rows));
        line += f.lines == 1 ? tr(" from 1 line") : tr(" from %1 lines").arg(f.lines);
        if (headerRows) line += tr(" (one is the header)");
        if (f.rows + headerRows < f.lines && f.quotedSpans > 0)
            line += (f.quotedSpans == 1 ? tr(" — fewer rows than lines because 1 quoted field spans several lines")
                                        : tr(" — fewer rows than lines because %1 quoted fields span several lines").arg(f.quotedSpans)) +
                    tr(" (listed below; set quoting off if the quotes are part of the text)");
        else if (f.rows + headerRows < f.lines)
            line += tr(" — fewer rows than lines because quoted fields hold line breaks");
        lines << line;
    }
    if (p.loaded) {
        const QString unit = p.regression() ? tr("windows") : p.translation() ? tr("sentence pairs") : tr("examples");
        lines << tr("Split: train %1 · dev %2 · test %3 %4").arg(p.train).arg(p.dev).arg(p.test).arg(unit);
        if (!p.regression() && !p.translation()) { // pairs: the split is all there is to count
            QStringList classes;
            for (const auto& c : p.classes) classes << qs(c);
            lines << tr("Classes (%1): %2").arg(p.classes.size()).arg(classes.join(QStringLiteral(", ")).toHtmlEscaped());
        } else if (p.regression()) {
            QStringList drivers;
            for (const auto& d : p.drivers) drivers << qs(d);
            lines << tr("Driving series (%1): %2").arg(p.drivers.size()).arg(drivers.join(QStringLiteral(", ")).toHtmlEscaped());
            if (p.missingCells > 0)
                lines << (p.missingPolicy == "drop"
                              ? tr("Missing cells: %1 in %2 rows, those rows dropped").arg(p.missingCells).arg(p.missingRows)
                              : tr("Missing cells: %1 in %2 rows filled (%3)").arg(p.missingCells).arg(p.missingRows).arg(qs(p.missingPolicy)));
        }
    } else {
        lines << tr("<b>Cannot be imported as it is:</b> the first error below is what training would stop at.");
    }
    counts_->setText(lines.join(QStringLiteral("<br>")));

    problems_->clear();
    for (const auto& problem : p.problems) {
        auto* item = new QListWidgetItem(problem.error ? tr("Error: %1").arg(qs(problem.text)) : tr("Note: %1").arg(qs(problem.text)));
        item->setIcon(style()->standardIcon(problem.error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxInformation));
        item->setData(Qt::UserRole, problem.line);
        item->setData(Qt::UserRole + 1, qs(problem.file));
        problems_->addItem(item);
    }
    if (p.problems.empty())
        problems_->addItem(new QListWidgetItem(style()->standardIcon(QStyle::SP_DialogApplyButton), tr("No problems found.")));
}

void DataImportDialog::headerClicked(int section)
{
    if (!preview_ || section < 0 || section >= static_cast<int>(preview_->columns.size()))
        return;
    const QString name = qs(preview_->columns[static_cast<std::size_t>(section)]);
    switch (static_cast<CsvPreview::Role>(role_->currentData().toInt())) {
    case CsvPreview::Role::Text:
        textColumn_ = name;
        if (labelColumn_ == name) labelColumn_.clear();
        break;
    case CsvPreview::Role::Label:
        labelColumn_ = name;
        if (textColumn_ == name) textColumn_.clear();
        break;
    case CsvPreview::Role::Target: // a series' target, or the pairs' target sentences
        targetColumn_ = name;
        if (sourceColumn_ == name) sourceColumn_.clear();
        drivers_.removeAll(name);
        ignored_.removeAll(name);
        break;
    case CsvPreview::Role::Driver:
        if (!drivers_.contains(name)) drivers_ << name;
        ignored_.removeAll(name);
        if (targetColumn_ == name) targetColumn_.clear();
        break;
    case CsvPreview::Role::Ignored:
        if (!ignored_.contains(name)) ignored_ << name;
        drivers_.removeAll(name);
        if (targetColumn_ == name) targetColumn_.clear();
        break;
    case CsvPreview::Role::Source:
        sourceColumn_ = name;
        if (targetColumn_ == name) targetColumn_.clear();
        break;
    case CsvPreview::Role::None: break;
    }
    schedule();
}

void DataImportDialog::updateOk()
{
    auto* ok = buttons_->button(QDialogButtonBox::Ok);
    const bool loaded = !busy_ && preview_ && preview_->loaded;
    ok->setEnabled(loaded);
    ok->setToolTip(loaded ? QString() : busy_ ? tr("Reading the file…") : tr("The data must load without errors"));
}

void DataImportDialog::accept()
{
    if (busy_ || !preview_ || !preview_->loaded)
        return;
    saveSettings();
    QDialog::accept();
}

} // namespace attnlab::ui
