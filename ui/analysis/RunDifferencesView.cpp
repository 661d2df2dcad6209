#include "ui/analysis/RunDifferencesView.h"

#include "core/analysis/ConfigDiff.h"
#include "core/analysis/RunField.h"
#include "core/results/RunResult.h"
#include "ui/analysis/TableDocumentModel.h"
#include "ui/analysis/TableExportDialog.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace attnlab::ui {

RunDifferencesView::RunDifferencesView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("runDifferencesView"));
    environment_ = new QCheckBox(tr("Environment instead of configuration"));
    environment_->setObjectName(QStringLiteral("differencesEnvironment"));
    environment_->setToolTip(tr("Versions, device, host, CPU, dataset and embeddings hashes"));
    summary_ = new QLabel;
    summary_->setObjectName(QStringLiteral("differencesSummary"));
    summary_->setWordWrap(true);
    auto* exportButton = new QPushButton(tr("Export…"));
    exportButton->setObjectName(QStringLiteral("differencesExport"));
    model_ = new TableDocumentModel(this);
    view_ = new QTableView;
    view_->setObjectName(QStringLiteral("differencesTable"));
    view_->setModel(model_);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view_->setWordWrap(false);

    auto* controls = new QHBoxLayout;
    controls->addWidget(summary_, 1);
    controls->addWidget(environment_);
    controls->addWidget(exportButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(view_, 1);

    connect(environment_, &QCheckBox::toggled, this, &RunDifferencesView::rebuild);
    connect(exportButton, &QPushButton::clicked, this, [this] {
        try {
            const QString path = TableExportDialog::save(this, table(), QStringLiteral("run-differences.csv"));
            if (!path.isEmpty())
                emit statusMessage(tr("Table saved to %1").arg(path));
        } catch (const std::exception& e) {
            QMessageBox::warning(this, tr("Export table"), QString::fromStdString(e.what()));
        }
    });
    rebuild();
}

void RunDifferencesView::setRuns(std::vector<RunRecord> runs)
{
    runs_ = std::move(runs);
    rebuild();
}

const TableDocument& RunDifferencesView::table() const
{
    return model_->document();
}

void RunDifferencesView::rebuild()
{
    TableDocument t;
    if (runs_.size() < 2) {
        model_->setDocument(t);
        summary_->setText(tr("Select two or more runs in the run list (Ctrl+click) to see what differs."));
        return;
    }
    const auto source = environment_->isChecked() ? ConfigDiff::Source::Environment : ConfigDiff::Source::Config;
    t.header.push_back(environment_->isChecked() ? "environment" : "config key");
    for (const auto& r : runs_)
        t.header.push_back("#" + std::to_string(r.id) + " " + RunField::text(r, "model,position"));
    // The results first, so what changed reads next to what it did; then only the differing keys, bold.
    auto add = [&](const std::string& name, const std::vector<std::string>& values, bool bold) {
        std::vector<TableDocument::Cell> row{{name, false}};
        for (const auto& v : values)
            row.push_back({v.empty() ? "—" : v, bold});
        t.rows.push_back(row);
    };
    std::vector<std::string> dev, test, status;
    for (const auto& r : runs_) {
        const RunResult result(r.summary());
        const int decimals = r.regression ? 4 : 2;
        status.push_back(toString(r.status));
        dev.push_back(result.devText(decimals));
        test.push_back((r.regression && result.hasTest() ? "rmse " : "") + result.testText(decimals));
    }
    add("status", status, false);
    add("best dev", dev, false);
    add("test", test, false);
    const auto diffs = ConfigDiff::of(runs_, source);
    for (const auto& d : diffs)
        add(d.key, d.values, true);
    model_->setDocument(t);
    const auto keys = ConfigDiff::keyCount(runs_, source);
    summary_->setText(diffs.empty() ? tr("All %1 keys are the same in the %2 runs.").arg(keys).arg(runs_.size())
                                    : tr("%1 of %2 keys differ (bold) across %3 runs.")
                                          .arg(diffs.size())
                                          .arg(keys)
                                          .arg(runs_.size()));
}

} // namespace attnlab::ui
