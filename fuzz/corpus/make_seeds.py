#!/usr/bin/env python3
"""Writes the seed corpora of fuzz/ (committed; run again only to change them): small hand-made valid
inputs for each harness, in its input layout (fuzz/support/FuzzInput.h): option bytes, then the files'
contents separated by 0x1E. The run store and export seeds come from a tiny run of a built attnlab-cli:
    fuzz/corpus/make_seeds.py [build/app/attnlab-cli]"""
import gzip, json, os, sqlite3, struct, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RS = b"\x1e"


def seed(harness, name, options, *parts):
    os.makedirs(os.path.join(HERE, harness), exist_ok=True)
    body = RS.join(p.encode() if isinstance(p, str) else p for p in parts)
    with open(os.path.join(HERE, harness, name), "wb") as f:
        f.write(bytes(options) + body)


TREES_TRAIN = "(3 (2 It) (4 (4 works) (2 .)))\n(1 (2 The) (1 (1 plot) (2 (2 is) (1 thin))))\n(4 (4 (3 really) (4 charming)) (2 !))\n(0 (2 A) (0 (0 dreadful) (2 mess)))\n(2 (2 It) (2 (2 is) (2 (2 a) (2 film))))\n"
TREES_DEV = "(3 (2 Good) (3 fun))\n(1 (1 Dull) (2 .))\n"
TREES_TEST = "(4 (4 Superb) (2 .))\n(0 (0 Awful))\n"
seed("fuzz_sst", "fine", [0, 0, 0, 0], TREES_TRAIN, TREES_DEV, TREES_TEST)
seed("fuzz_sst", "binary-phrases", [1, 1, 1, 0], TREES_TRAIN, TREES_DEV, TREES_TEST)
seed("fuzz_sst", "crlf-blank-lines", [0, 1, 0, 1], TREES_TRAIN.replace("\n", "\r\n") + "\r\n\r\n", TREES_DEV, TREES_TEST)

opener = ["very bad hotel\nnever again\n", "the room was small\n", "nice staff\n", "wonderful stay\ngreat view\n"]
seed("fuzz_labelled_lines", "opener", [0, 0], *(opener * 3))
sentube = ["this phone is slow , sadly\n", "love it ! the screen is great\n\ufeffgood\n"]
seed("fuzz_labelled_lines", "sentube", [1, 1], *(sentube * 3))

semeval = ('26481\t3001\t"positive"\tLoving the new @user album! #great http://t.co/x\n'
           '26482\t3002\t"negative"\tworst. day. ever :(\n'
           '26483\t3003\t"objective-OR-neutral"\tThe match starts at 8pm\n'
           '26484\t3004\t"neutral"\tmeeting tomorrow\n')
seed("fuzz_semeval", "tweets", [0], semeval, semeval, semeval)
seed("fuzz_semeval", "lowercase", [1], semeval, semeval.split("\n")[0] + "\n", semeval)

reviews = "text,label\n" + "".join(f"\"review {i}, quite {'good' if i % 2 else 'bad'}\",{'pos' if i % 2 else 'neg'}\n" for i in range(12))
seed("fuzz_csv_text", "comma-header", [0, 0, 0, 0, 0, 0, 0, 0], reviews)
tsv = "".join(f"{i % 3}\tthe \"film\" number {i} is {'fine' if i % 2 else 'poor'}\n" for i in range(12))
seed("fuzz_csv_text", "tsv-stray-quotes", [2, 1, 2, 2, 1, 1, 1, 1], tsv)
seed("fuzz_csv_text", "per-split", [1, 2, 1, 3, 4, 2, 0, 0], "text,label\ngood,1\nbad,0\nfine,1\n", "text,label\nok,1\n", "text,label\nmeh,0\n")
seed("fuzz_csv_text", "semicolon-no-header", [3, 1, 0, 1, 2, 0, 0, 2], "".join(f"sentence {i};{i % 2}\n" for i in range(9)))

# sentence pairs. Options: delimiter, header, quoting, source and target column, tokenizer, lowercase,
# fractions, length cap, CSV or line files, gzip. German and French with „quotes“, elisions and an entity.
pairs = "de,en\n" + "".join(f"\"Ich sehe {i} Hunde, „gut“.\",I see {i} dogs &amp; cats.\n" for i in range(12))
seed("fuzz_csv_pairs", "comma-header", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], pairs)
seed("fuzz_csv_pairs", "tsv-per-split-cap", [2, 2, 2, 1, 1, 1, 1, 1, 3, 0, 0], "de\ten\nHallo da\tHello there\nEin langer Satz hier\tA long sentence here\n",
     "de\ten\nDanke\tThanks\n", "de\ten\nJa\tYes\n")
french = "".join(f"L'homme boit de l'eau {i} fois.\n" for i in range(10))
english = "".join(f"The man drinks water {i} times.\n" for i in range(10))
seed("fuzz_csv_pairs", "lines", [0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0], french, english)
seed("fuzz_csv_pairs", "lines-gzip-per-split", [0, 0, 0, 0, 0, 0, 0, 1, 4, 1, 1], french, english, "Qu'il vienne.\n", "Let him come.\n",
     "C'est « bon ».\n", "It's \"good\".\n")
seed("fuzz_csv_pairs", "blank-and-uneven", [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0], "eins\n\nzwei\n\n", "one\ntwo\n")

series = "y,x,temp,day\n" + "".join(f"{i * 0.5:.2f},{(i * 7) % 5},{20 + i % 3},{['Mon', 'Tue', 'Wed'][i % 3]}\n" for i in range(40))
seed("fuzz_csv_series", "comma-target-y", [0, 0, 2, 0, 1, 2, 0, 0, 3, 0, 0], series)
gaps = series.replace("\n3.00,", "\nNA,").replace(",21,", ",,")
seed("fuzz_csv_series", "missing-ffill-onehot", [1, 2, 1, 1, 0, 1, 1, 1, 0, 2, 1], gaps)
seed("fuzz_csv_series", "missing-interpolate", [2, 3, 0, 0, 2, 0, 2, 0, 1, 1, 2], gaps.replace(",", "\t"))
sml_header = "# " + " ".join(f"{i}:Col{i}" for i in range(1, 25)) + "\n"
sml_rows = "".join("13/03/2012 11:" + f"{m:02d}" + " " + " ".join(f"{18 + (m + c) % 7 * 0.1:.2f}" for c in range(22)) + "\n" for m in range(0, 60, 15))
seed("fuzz_csv_series", "sml2010", [3, 0, 1, 0], sml_header + sml_rows, sml_rows)

glove = "the 0.1 0.2 0.3\ngood 0.5 -0.1 0.25\nbad -0.5 0.1e-1 2\n"
seed("fuzz_embeddings", "glove-text", [0], glove)
seed("fuzz_embeddings", "glove-text-gz", [1], glove)
seed("fuzz_embeddings", "word2vec-text", [0], "3 3\n" + glove)
binary = b"2 3\n" + b"".join(w + b" " + struct.pack("<3f", *v) + b"\n" for w, v in [(b"good", (0.5, -0.1, 0.25)), (b"bad", (-0.5, 0.01, 2.0))])
seed("fuzz_embeddings", "word2vec-binary", [0], binary)
seed("fuzz_embeddings", "word2vec-binary-gz", [1], binary)

config = {"description": "hand-made", "repeats": 2, "dataset": "csv-series", "model": "essan", "position": "rpr",
          "d_model": 16, "optimizer": "adadelta", "learning_rate": 1.0, "steps": 20, "eval_every": 10,
          "missing_values": "ffill", "categorical": "onehot", "lr_schedule": "step"}
seed("fuzz_config", "hand-made", [], json.dumps(config))
seed("fuzz_config", "minimal", [], '{"model": "lstm", "steps": 5}')
with open(os.path.join(HERE, "..", "..", "resources", "presets", "table5.3-lstm-quick.json"), "rb") as f:
    seed("fuzz_config", "preset", [], f.read())

seed("fuzz_sweep_spec", "grid", [], json.dumps({"name": "small", "base": {"steps": 20}, "grid": {"model": ["ssan", "lstm"], "position": ["none", "rpr"]}, "repeats": 2}))
seed("fuzz_sweep_spec", "presets", [], json.dumps({"presets": ["table5.3-lstm-quick"], "grid": {"seed": [1, 2], "learning_rate": [0.1, 0.01]}}))

seed("fuzz_manifest", "hand-made", [], json.dumps({"id": "tiny", "name": "Tiny", "task": "classification", "folder": "sentiment/tiny",
     "upstream": "https://example.org", "license": "CC0", "citation": "none",
     "files": [{"path": "sentiment/tiny/train.txt", "sha256": "0" * 64, "bytes": 12, "url": "https://example.org/train.txt"},
               {"path": "sentiment/tiny/dev.txt", "sha256": "f" * 64, "bytes": 3}]}))
with open(os.path.join(HERE, "..", "..", "datasets", "sml2010.json"), "rb") as f:
    seed("fuzz_manifest", "sml2010", [], f.read())


# a pretrained model's weights and tokenizer. A tiny safetensors file (three dtypes, metadata), then a
# WordPiece vocabulary with sentences that reach its branches (accents, CJK, punctuation, specials, long words).
def safetensors(tensors, metadata=None):
    header, data = {}, b""
    for name, (dtype, shape, raw) in tensors.items():
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    if metadata:
        header["__metadata__"] = metadata
    h = json.dumps(header).encode()
    return struct.pack("<Q", len(h)) + h + data


seed("fuzz_safetensors", "three-dtypes", [], safetensors({
    "embeddings.word_embeddings.weight": ("F32", [2, 2], struct.pack("<4f", 1.5, -2.0, 0.25, 1e-3)),
    "h": ("F16", [3], bytes.fromhex("003c00c1ff7b")), "b": ("BF16", [], bytes.fromhex("4940")),
    "position_ids": ("I64", [1, 2], struct.pack("<2q", 0, 1))}, {"format": "pt"}))
seed("fuzz_safetensors", "empty", [], safetensors({}))
VOCAB = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nun\n##aff\n##able\nunaffable\n##a\ncafe\n!\n,\n##ly\nhappy\n\u4e2d\n$\n"
seed("fuzz_wordpiece", "plain", [0, 0], VOCAB, "Unaffable, happy caf\u00e9!", "")
seed("fuzz_wordpiece", "specials-cjk-cut", [1, 5], VOCAB, "happy[MASK]\u4e2d\u4e2dunaffablea soft\u00adhappy " + "a" * 101,
     json.dumps({"do_lower_case": False, "strip_accents": None, "tokenize_chinese_chars": True}))
seed("fuzz_wordpiece", "uncased-config", [1, 0], VOCAB, "\u0130stanbul \u03a3\u039f\u03a3 caf\u00e9 \t\r\n",
     json.dumps({"do_lower_case": True}))

# A language model's text: a play's opening as characters (plain, gzip), words, and UTF-8 beyond ASCII with CRLF.
play = "First Citizen:\nBefore we proceed any further, hear me speak.\n\nAll:\nSpeak, speak.\n"
seed("fuzz_text_corpus", "play-characters", [0, 0], play)
seed("fuzz_text_corpus", "play-gzip", [0, 1], play)
seed("fuzz_text_corpus", "play-words", [1, 0], play * 3)
seed("fuzz_text_corpus", "utf8-crlf-bom", [0, 0], "\ufeffCafé — naïve 北京 😀\r\nline two, line two\r\n")

# A time-series run's stored forecast: with attention pooling over a window of 3, without attention, and a row of
# attention shorter than the window (refused).
seed("fuzz_forecast", "with-attention", [], json.dumps({
    "target": "temperature", "first_row": 3600, "window": 3, "actual": [18.5, 18.75, 19.0], "predicted": [18.4, 18.8, 19.1],
    "attention_name": "attention pooling", "attention": [[0.2, 0.3, 0.5], [0.1, 0.1, 0.8], [0.3, 0.3, 0.4]]}))
seed("fuzz_forecast", "no-attention", [], json.dumps({"target": "y", "first_row": 0, "window": 50, "actual": [1e-3, -2.5],
                                                     "predicted": [0.0012, -2.49]}))
seed("fuzz_forecast", "short-row", [], json.dumps({"window": 2, "actual": [1], "predicted": [1], "attention": [[0.5]]}))

if len(sys.argv) > 1:  # a store and its export, from a tiny run of the built CLI
    cli = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "runs.sqlite")
        c = sqlite3.connect(db)
        c.execute("PRAGMA page_size = 512")  # small pages: a small seed file
        c.execute("CREATE TABLE t(x)")
        c.execute("DROP TABLE t")
        c.commit()
        c.close()
        subprocess.run([cli, "train", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "rpr",
                        "--d-model", "8", "--steps", "6", "--eval-every", "3", "--log-every", "3", "--seed", "1",
                        "--db", db, "--tags", "seed", "--json"], check=True, capture_output=True)
        exported = os.path.join(tmp, "export.json")
        subprocess.run([cli, "runs", "export", "--db", db, "--out", exported], check=True, capture_output=True)
        c = sqlite3.connect(db)
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        c.execute("VACUUM")
        c.close()
        with open(db, "rb") as f:
            seed("fuzz_run_store", "one-run", [0], f.read())
        with open(db, "rb") as f:
            seed("fuzz_run_store", "one-run-import", [1], f.read())
        with open(exported, "rb") as f:
            seed("fuzz_run_import", "one-run", [], f.read())


# A pretrained language model's file: a tiny GGUF v3 (llama metadata, a tokenizer, one tensor of each type the reader
# dequantizes: F32, F16, Q8_0, Q4_1), and its tokenizer's parts as fuzz_bpe reads them.
def gguf_string(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def gguf(metadata, tensors, version=3):
    out = b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(metadata))
    for key, (kind, value) in metadata.items():
        out += gguf_string(key) + struct.pack("<I", kind)
        if kind == 4:
            out += struct.pack("<I", value)
        elif kind == 6:
            out += struct.pack("<f", value)
        elif kind == 8:
            out += gguf_string(value)
        elif kind == 9:  # an array of strings
            out += struct.pack("<IQ", 8, len(value)) + b"".join(gguf_string(v) for v in value)
    offset, data = 0, b""
    for name, dims, kind, payload in tensors:
        out += gguf_string(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims)
        out += struct.pack("<IQ", kind, offset)
        data += payload + b"\0" * ((-len(payload)) % 32)
        offset = len(data)
    out += b"\0" * ((-len(out)) % 32)
    return out + data


half = lambda x: struct.pack("<e", x)
q8 = half(0.25) + bytes((j - 16) & 0xFF for j in range(32))
q41 = half(0.5) + half(-1.0) + bytes(((j << 4) | (15 - j)) for j in range(16))
tokens = ["<|endoftext|>", "a", "b", "c", "\u0120", "ab", "\u0120a"]
seed("fuzz_gguf", "llama-four-types", [], gguf({
    "general.architecture": (8, "llama"), "llama.block_count": (4, 1), "llama.embedding_length": (4, 32),
    "llama.attention.head_count": (4, 2), "llama.attention.head_count_kv": (4, 1), "llama.feed_forward_length": (4, 64),
    "llama.context_length": (4, 16), "llama.rope.freq_base": (6, 10000.0),
    "llama.attention.layer_norm_rms_epsilon": (6, 1e-5), "tokenizer.ggml.model": (8, "gpt2"),
    "tokenizer.ggml.tokens": (9, tokens), "tokenizer.ggml.merges": (9, ["a b", "\u0120 a"])},
    [("f32", [2], 0, struct.pack("<2f", 3.25, -7.0)), ("f16", [4], 1, half(1.0) + half(-2.0) + half(0.5) + half(3.0)),
     ("q8", [32], 8, q8), ("q41", [32], 3, q41)]))
seed("fuzz_gguf", "empty", [], gguf({}, []))
seed("fuzz_bpe", "merges-and-specials", [1], "\n".join(tokens) + "\n<|im_start|>\n", "a b\n\u0120 a\n",
     "ab a<|im_start|>cab  a\n")
