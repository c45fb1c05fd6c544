#!/usr/bin/env python3
"""Writes the Fashion-MNIST subset embedded in the jburn jar: the first N training and M test examples of the
Debian package dataset-fashion-mnist (/usr/share/datasets/fashion-mnist), as gzip IDX files. Standard library only.
Usage: make-fashion-subset.py [N] [M] [OUT_DIR]"""
import gzip, struct, sys, os

SRC = "/usr/share/datasets/fashion-mnist"
n_train = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
n_test = int(sys.argv[2]) if len(sys.argv) > 2 else 600
out = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__), "..", "src/main/resources/dev/jburn/cli/fashion-mnist-subset")

def cut(name, n):
    with gzip.open(os.path.join(SRC, name + ".gz"), "rb") as f:
        data = f.read()
    magic, = struct.unpack(">I", data[:4])
    rank = magic & 0xFF
    dims = list(struct.unpack(">" + "I" * rank, data[4:4 + 4 * rank]))
    per = 1
    for d in dims[1:]:
        per *= d
    body = data[4 + 4 * rank: 4 + 4 * rank + n * per]
    dims[0] = n
    head = struct.pack(">I", magic) + struct.pack(">" + "I" * rank, *dims)
    with gzip.GzipFile(os.path.join(out, name + ".gz"), "wb", compresslevel=9, mtime=0) as g:
        g.write(head + body)

os.makedirs(out, exist_ok=True)
cut("train-images-idx3-ubyte", n_train)
cut("train-labels-idx1-ubyte", n_train)
cut("t10k-images-idx3-ubyte", n_test)
cut("t10k-labels-idx1-ubyte", n_test)
