#!/usr/bin/env python3
"""The PyTorch twin of `jburn train`: the same model (MLP 784-256-10 ReLU, or the small CNN), Adam, batch size,
epochs, validation split (the last 1/12 of the training images held out, as Fit.validationSplit) and data
(Fashion-MNIST IDX files, pixels / 255), on the CPU with 2 threads. Prints one line per epoch with the training
samples/s of that epoch (training steps only, validation excluded), then the test accuracy, as JSON lines.
With --precision bf16|f16 the forward and loss run under torch.autocast (f32 master weights; f16 with a GradScaler),
the twin of `jburn train --precision`.
With --compile MODE the model is torch.compile'd (mode reduce-overhead: Inductor kernels replayed as CUDA graphs); its first
epoch includes the compilation.
With --tf32 on|off, CUDA's TF32 tensor cores are on (or off) for both convs and matmuls; by default PyTorch runs cuDNN's
convs in TF32 and matmuls in f32.
Usage: train_torch.py [--model mlp|cnn] [--epochs 5] [--batch-size 128] [--lr 1e-3] [--limit N] [--data DIR] [--precision f32] [--lr-schedule auto|constant|cosine] [--seed 0] [--compile MODE] [--tf32 default|on|off]"""
import argparse, gzip, json, os, struct, time
import numpy as np
import torch

p = argparse.ArgumentParser()
p.add_argument("--model", default="mlp")
p.add_argument("--epochs", type=int, default=5)
p.add_argument("--batch-size", type=int, default=128)
p.add_argument("--lr", type=float, default=1e-3)
p.add_argument("--limit", type=int, default=0)
p.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
p.add_argument("--threads", type=int, default=2)
p.add_argument("--device", default="cpu")
p.add_argument("--lr-schedule", default="auto", choices=["auto", "constant", "cosine"])
p.add_argument("--seed", type=int, default=0)
p.add_argument("--precision", default="f32", choices=["f32", "bf16", "f16"])
p.add_argument("--compile", default="", help="torch.compile the model with this mode (e.g. reduce-overhead: CUDA graphs); "
               "the optimizer step stays eager, evaluation runs the eager module")
p.add_argument("--tf32", default="default", choices=["default", "on", "off"],
               help="TF32 tensor cores on CUDA: 'default' leaves PyTorch's defaults (cuDNN convs TF32, matmuls f32), 'on' turns "
               "them on for both (the twin of jburn train --tf32), 'off' for both (the twin of jburn's f32 default)")
p.add_argument("--profile", type=int, default=0, help="after training, profile this many more steps with torch.profiler "
               "and print the kernels' device time (to compare with jburn's -Djburn.profile.nodes.sync=true)")
a = p.parse_args()
torch.set_num_threads(a.threads)
if a.tf32 != "default":
    torch.backends.cudnn.allow_tf32 = a.tf32 == "on"
    torch.backends.cuda.matmul.allow_tf32 = a.tf32 == "on"

torch.manual_seed(a.seed)

def idx(name):
    path = os.path.join(a.data, name)
    opener = gzip.open if os.path.exists(path + ".gz") else open
    with opener(path + ".gz" if os.path.exists(path + ".gz") else path, "rb") as f:
        data = f.read()
    rank = data[3]
    dims = struct.unpack(">" + "I" * rank, data[4:4 + 4 * rank])
    return np.frombuffer(data, np.uint8, offset=4 + 4 * rank).reshape(dims)

xtr = idx("train-images-idx3-ubyte").astype(np.float32) / 255.0
ytr = idx("train-labels-idx1-ubyte").astype(np.int64)
xte = idx("t10k-images-idx3-ubyte").astype(np.float32) / 255.0
yte = idx("t10k-labels-idx1-ubyte").astype(np.int64)
if a.limit:
    xtr, ytr = xtr[:a.limit], ytr[:a.limit]
n_train = int(round(len(xtr) * (1 - 1 / 12)))
shape = (-1, 784) if a.model == "mlp" else (-1, 1, 28, 28)
Xtr, Ytr = torch.from_numpy(xtr[:n_train].reshape(shape)), torch.from_numpy(ytr[:n_train])
Xva, Yva = torch.from_numpy(xtr[n_train:].reshape(shape)), torch.from_numpy(ytr[n_train:])
Xte, Yte = torch.from_numpy(xte.reshape(shape)), torch.from_numpy(yte)
dev = torch.device(a.device)
Xtr, Ytr, Xva, Yva, Xte, Yte = (t.to(dev) for t in (Xtr, Ytr, Xva, Yva, Xte, Yte))

nn = torch.nn
if a.model == "mlp":
    net = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
else:  # batch norm as jburn train's CNN: epsilon 1e-3 (JBurn's default), running momentum 0.9 (PyTorch's 0.1)
    net = nn.Sequential(nn.Conv2d(1, 32, 3), nn.BatchNorm2d(32, eps=1e-3, momentum=0.1), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(32, 64, 3), nn.BatchNorm2d(64, eps=1e-3, momentum=0.1), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Flatten(), nn.Linear(1600, 128), nn.ReLU(), nn.Linear(128, 10))
net = net.to(dev)
opt = torch.optim.Adam(net.parameters(), lr=a.lr)
train_net = torch.compile(net, mode=a.compile) if a.compile else net
steps_total = a.epochs * ((n_train + a.batch_size - 1) // a.batch_size)
# --lr-schedule cosine: from lr to 0 over all steps, stepped per batch (jburn train's Schedules.cosineDecay(lr, steps, 0))
schedule = a.lr_schedule if a.lr_schedule != "auto" else ("cosine" if a.model == "cnn" else "constant")  # as jburn train
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=steps_total) if schedule == "cosine" else None
loss_fn = nn.CrossEntropyLoss()
amp_dtype = {"f32": None, "bf16": torch.bfloat16, "f16": torch.float16}[a.precision]
if hasattr(torch.amp, "GradScaler"):
    scaler = torch.amp.GradScaler(dev.type, enabled=a.precision == "f16")
else:  # the older torch of Debian's python3-torch
    scaler = torch.cuda.amp.GradScaler(enabled=a.precision == "f16")

def autocast():
    return torch.autocast(dev.type, dtype=amp_dtype, enabled=amp_dtype is not None)

def evaluate(X, Y):
    net.eval()
    with torch.no_grad():
        correct, total = 0, 0.0
        for i in range(0, len(X), 512):
            with autocast():
                out = net(X[i:i + 512]).float()
            total += loss_fn(out, Y[i:i + 512]).item() * len(out)
            correct += (out.argmax(1) == Y[i:i + 512]).sum().item()
    net.train()
    return total / len(X), correct / len(X)

def train_step(idx_b):
    opt.zero_grad(set_to_none=True)
    with autocast():
        loss = loss_fn(train_net(Xtr[idx_b]), Ytr[idx_b])
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    return loss

print(json.dumps({"info": "torch %s on %s, %d threads, model %s, %d training images, precision %s%s" % (torch.__version__, a.device, torch.get_num_threads(), a.model, n_train, a.precision, (", torch.compile mode " + a.compile if a.compile else "") + (", tf32 " + a.tf32 if a.tf32 != "default" else ""))}), flush=True)
g = torch.Generator().manual_seed(a.seed)
t_all = time.perf_counter()
for epoch in range(a.epochs):
    perm = torch.randperm(n_train, generator=g).to(dev)
    if dev.type == "cuda":
        torch.cuda.synchronize()
    t0 = time.perf_counter()
    for i in range(0, n_train, a.batch_size):
        loss = train_step(perm[i:i + a.batch_size])
        if sched is not None:
            sched.step()
    if dev.type == "cuda":
        torch.cuda.synchronize()
    secs = time.perf_counter() - t0
    vl, va = evaluate(Xva, Yva)
    print(json.dumps({"epoch": epoch + 1, "samples_per_s": n_train / secs, "seconds": secs, "loss": loss.item(),
                      "val_loss": vl, "val_accuracy": va}), flush=True)
tl, ta = evaluate(Xte, Yte)
print(json.dumps({"test_loss": tl, "test_accuracy": ta, "wall_s": time.perf_counter() - t_all}), flush=True)

if a.profile:
    from torch.profiler import profile, ProfilerActivity
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if dev.type == "cuda" else [])
    with profile(activities=acts) as prof:
        for i in range(0, min(n_train, a.profile * a.batch_size), a.batch_size):
            train_step(torch.arange(i, min(i + a.batch_size, n_train), device=dev))
        if dev.type == "cuda":
            torch.cuda.synchronize()
    key = "self_cuda_time_total" if dev.type == "cuda" else "self_cpu_time_total"
    print("profile of %d steps, batch %d, sorted by %s:" % (a.profile, a.batch_size, key))
    print(prof.key_averages().table(sort_by=key, row_limit=30, max_name_column_width=70))
