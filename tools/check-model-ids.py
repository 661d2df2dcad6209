#!/usr/bin/env python3
"""What a model is and can do is asked of its registry entry, never of its id: no comparison of a model id or a
task id with a string literal (`model == "gpt"`, `task == "regression"`) outside the registry itself.

The registry (core/config/Registry.cpp) declares every model's tasks and abilities (ModelSpec), and
core/nn/models/ModelFactory.cpp maps an id to its class; code elsewhere asks Registry::model(id)->can.attention,
servesTask(TaskKind::...), hasOption(...). The ids are read from Registry.cpp, so a new model is checked too.
PENDING lists the files that still compare ids, each with what remains; a comparison anywhere else is an error
naming the file and the line, and so is a PENDING file that no longer needs its entry (the list only shrinks).
Run by ctest (model_ids) and by hand: tools/check-model-ids.py [SOURCE_DIR]; exit 0 or 1.
"""
import os
import re
import sys

from source_lines import lines_under, report

FOLDERS = ["core", "cli", "ui", "app"]
ALLOWED = {
    "core/config/Registry.cpp": "the registry itself",
    "core/nn/models/ModelFactory.cpp": "the one place an id meets its class",
}
# Still to move into the registry (a variant passed by the factory, or an ability), with what each compares.
PENDING = {
    "core/nn/models/RecurrentClassifier.cpp": "the cell and direction from the id (rnn, gru, bilstm, rnn-attention)",
    "core/nn/models/RecurrentRegressor.cpp": "narx, attn-rnn: which of the three recurrent regressors",
    "core/nn/models/RecurrentSeq2Seq.cpp": "bahdanau, luong: which recurrent decoder",
    "core/nn/models/LinearClassifier.cpp": "bow or ave",
    "core/nn/models/TransformerSeq2Seq.cpp": "birnn-transformer: a recurrent encoder",
    "core/training/ModelCharacteristics.cpp": "essan's 15 heads at d_model 300 (Table 5.5)",
    "cli/commands/ExplainCommand.cpp": "--pretrained minilm, an alias read from the command line",
    "core/training/ModelExplainer.cpp": "a checkpoint's stored task, to be parsed once into a TaskKind",
    "core/training/TextGenerator.cpp": "a checkpoint's stored task, to be parsed once into a TaskKind",
    "core/training/Translator.cpp": "a checkpoint's stored task, to be parsed once into a TaskKind",
}
TASKS = ["classification", "regression", "translation", "language_model", "both"]


def model_ids(root: str):
    with open(os.path.join(root, "core/config/Registry.cpp"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("Registry::models()")
    end = text.index("Registry::positions()", start)
    # An entry opens with its id and its display name ("SSAN", "n-gram (counts)"), which has a capital or a space;
    # the lists of positions and dropout points inside the table are all lower case.
    return set(re.findall(r'\{\s*"([a-z0-9-]+)",\s*"[^"]*[A-Z (][^"]*",', text[start:end]))


def main() -> int:
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    ids = model_ids(root)
    if len(ids) < 20:
        return report("check-model-ids", [f"core/config/Registry.cpp: read only {len(ids)} model ids"], "problems")
    literal = "|".join(re.escape(i) for i in sorted(ids | set(TASKS), key=len, reverse=True))
    comparison = re.compile(r'[!=]=\s*"(' + literal + r')"|"(' + literal + r')"\s*[!=]=')
    # A recurrent cell (lstm, gru, rnn) is a setting of its own whose values share three model ids.
    cell = re.compile(r'\bcell\s*[!=]=\s*"')
    problems, seen = [], set()
    for folder in FOLDERS:
        for source, number, line in lines_under(os.path.join(root, folder)):
            path = os.path.relpath(source, root)
            code = line.split("//", 1)[0]
            if path in ALLOWED or not comparison.search(cell.sub("", code)):
                continue
            if path in PENDING:
                seen.add(path)
                continue
            problems.append(f"{path}:{number}: compares an id with a literal; ask the registry "
                            f"(Registry::model(id), servesTask, can.*, hasOption): {line.strip()}")
    for path in sorted(set(PENDING) - seen):
        problems.append(f"{path}: compares no id any more; remove it from PENDING in tools/check-model-ids.py")
    return report("check-model-ids", problems, "id comparisons")


if __name__ == "__main__":
    sys.exit(main())
