#!/usr/bin/env python3
"""Writes PyTorch modules' state dicts as safetensors files, and an input with PyTorch's output for each,
for TorchImportTest (engine-nn) and TorchImportCnnTest (cli): JBurn loads the weights with TorchImport and
must give the same outputs within 1e-5.

    python3 bench/torch_export.py OUT_DIR [CASE ...]      # cases: linear conv batchnorm lstm gru attention cnn

For each case it writes OUT_DIR/CASE.safetensors (the module's state_dict(), names as PyTorch gives them) and
OUT_DIR/CASE-io.safetensors ("x": the input, "y": the output), both already in JBurn's layouts where they differ
(images channels-last: NHWC instead of NCHW). The Python `safetensors` package is not needed: the format is an
8-byte little-endian header length, a JSON header {name: {dtype, shape, data_offsets}}, then the raw
little-endian row-major bytes, written here by hand.
"""
import json
import os
import struct
import sys

import torch
from torch import nn

DTYPES = {torch.float32: "F32", torch.float64: "F64", torch.int64: "I64", torch.float16: "F16"}


def write_safetensors(path, tensors):
    header, blobs, offset = {}, [], 0
    for name, t in tensors.items():
        t = t.detach().contiguous().cpu()
        raw = t.numpy().tobytes()  # numpy on x86 is little-endian, row-major for a contiguous tensor
        header[name] = {"dtype": DTYPES[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)
    os.replace(tmp, path)


def nhwc(t):
    return t.permute(0, 2, 3, 1)


def randomize_batch_norm(m, g):
    # Fresh batch norms hold mean 0, var 1: give them statistics and affine values that test the mapping.
    for b in m.modules():
        if isinstance(b, nn.BatchNorm2d):
            with torch.no_grad():
                b.running_mean.copy_(torch.randn(b.num_features, generator=g))
                b.running_var.copy_(torch.rand(b.num_features, generator=g) + 0.5)
                b.weight.copy_(torch.randn(b.num_features, generator=g))
                b.bias.copy_(torch.randn(b.num_features, generator=g))


def case(name, g):
    if name == "linear":
        m = nn.Linear(5, 3)
        x = torch.randn(4, 5, generator=g)
        return m, x, lambda y: y, lambda x: x
    if name == "conv":
        m = nn.Conv2d(4, 6, 3, stride=2, padding=1, groups=2)
        x = torch.randn(2, 4, 7, 7, generator=g)
        return m, x, lambda y: y, nhwc
    if name == "batchnorm":
        m = nn.BatchNorm2d(3)
        randomize_batch_norm(m, g)
        x = torch.randn(2, 3, 4, 5, generator=g)
        return m, x, lambda y: y, nhwc
    if name == "lstm":
        m = nn.LSTM(4, 5, num_layers=2, batch_first=True, bidirectional=True)
        x = torch.randn(3, 6, 4, generator=g)
        return m, x, lambda out: out[0], lambda x: x
    if name == "gru":
        m = nn.GRU(4, 5, batch_first=True)
        x = torch.randn(3, 6, 4, generator=g)
        return m, x, lambda out: out[0], lambda x: x
    if name == "attention":
        m = nn.MultiheadAttention(8, 2, batch_first=True)
        with torch.no_grad():  # PyTorch starts the projection biases at 0: make them count
            m.in_proj_bias.copy_(torch.randn(24, generator=g))
            m.out_proj.bias.copy_(torch.randn(8, generator=g))
        x = torch.randn(2, 5, 8, generator=g)
        return _SelfAttention(m), x, lambda y: y, lambda x: x
    if name == "cnn":
        # The cli's Architectures "cnn": (conv-batchnorm-relu-pool) x 2 with 32 and 64 filters, flatten, 128-relu-10, on
        # 28x28x1; batch norm with JBurn's default epsilon 1e-3, in eval mode on random running statistics.
        m = nn.Sequential(nn.Conv2d(1, 32, 3), nn.BatchNorm2d(32, eps=1e-3), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(32, 64, 3), nn.BatchNorm2d(64, eps=1e-3), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(1600, 128), nn.ReLU(), nn.Linear(128, 10))
        with torch.no_grad():
            for bn in (m[1], m[5]):
                n = bn.num_features
                bn.running_mean.copy_(torch.randn(n, generator=g) * 0.1)
                bn.running_var.copy_(torch.rand(n, generator=g) + 0.5)
                bn.weight.copy_(torch.rand(n, generator=g) + 0.5)
                bn.bias.copy_(torch.randn(n, generator=g) * 0.1)
        m.eval()
        x = torch.rand(4, 1, 28, 28, generator=g)
        return m, x, lambda y: y, nhwc
    raise SystemExit("unknown case " + name)


class _SelfAttention(nn.Module):
    """nn.MultiheadAttention as self-attention, with the state dict names of the wrapped module."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x):
        return self.m(x, x, x, need_weights=False)[0]

    def state_dict(self, *args, **kwargs):
        return self.m.state_dict(*args, **kwargs)


def main():
    out = sys.argv[1]
    names = sys.argv[2:] or ["linear", "conv", "batchnorm", "lstm", "gru", "attention", "cnn"]
    os.makedirs(out, exist_ok=True)
    for i, name in enumerate(names):
        torch.manual_seed(100 + i)
        g = torch.Generator().manual_seed(200 + i)
        m, x, pick, to_jburn = case(name, g)
        m.eval()
        with torch.no_grad():
            y = pick(m(x))
        write_safetensors(os.path.join(out, name + ".safetensors"), dict(m.state_dict()))
        write_safetensors(os.path.join(out, name + "-io.safetensors"), {"x": to_jburn(x), "y": to_jburn(y) if y.dim() == 4 else y})
        print(name, "ok")


if __name__ == "__main__":
    main()
