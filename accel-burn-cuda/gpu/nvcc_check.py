"""Compiles every kernel source the cuda engine generates with a local nvcc (no GPU needed), 40 to a
file (each wrapped in its own namespace, entry points renamed), and prints the errors per kernel.
Usage (from the project root, after accel-burn-cuda/gpu/collect-jars.sh):
  java --add-modules jdk.incubator.vector -cp "$(ls .gpu/lib/*.jar | tr '\n' :)" dev.jburn.cuda.EmitterCompileCheck dump /tmp/kdump
  python3 accel-burn-cuda/gpu/nvcc_check.py /tmp/kdump [sm_90]
nvcc includes the CUDA runtime headers that NVRTC does not, so this checks the generated C++, not
NVRTC's header set."""
import re, os, subprocess, sys, tempfile, concurrent.futures as cf
d = sys.argv[1] if len(sys.argv) > 1 else '/tmp/kdump'
arch = sys.argv[2] if len(sys.argv) > 2 else 'sm_90'
work = tempfile.mkdtemp(prefix='jburn-nvcc-')
rows = [l.rstrip('\n').split('\t') for l in open(f'{d}/index.tsv') if not l.startswith('EMITTER')]
B = 40
batches = [rows[i:i+B] for i in range(0, len(rows), B)]
def build(bi):
    parts, lines = [], []  # (start line, name)
    out = []
    line = 1
    for name, entry, label in batches[bi]:
        src = open(f'{d}/{name}.cu').read()
        src = re.sub(r'\b(jburn_\w+)\b', lambda m: m.group(1) + '_' + name, src)
        # preprocessor lines must stay outside the namespace (they are global anyway)
        body = f'namespace n{name} {{\n{src}\n}}\n'
        lines.append((line, name, label))
        out.append(body)
        line += body.count('\n')
    path = f'{work}/b{bi:03d}.cu'
    open(path, 'w').write(''.join(out))
    r = subprocess.run(['nvcc', '-cubin', f'-arch={arch}', '-std=c++17', '-fmad=false', '-w', '-o', f'{work}/b{bi:03d}.cubin', path],
                       capture_output=True, text=True)
    errs = []
    for l in (r.stdout + r.stderr).splitlines():
        m = re.match(r'.*\.cu\((\d+)\): (error.*)', l)
        if m:
            ln = int(m.group(1))
            owner = max((x for x in lines if x[0] <= ln), key=lambda x: x[0])
            errs.append(f'{owner[2]} [{owner[1]}]: line {ln - owner[0]}: {m.group(2)}')
        elif 'error' in l.lower() and '.cu(' not in l:
            errs.append(f'batch {bi}: {l}')
    return bi, r.returncode, errs
failed = 0
with cf.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
    for bi, rc, errs in ex.map(build, range(len(batches))):
        print(f'batch {bi}: rc={rc} errors={len(errs)}', flush=True)
        failed += len(errs) + (1 if rc and not errs else 0)
        for e in errs[:15]: print('   ', e)
print(f'{len(rows)} kernels in {len(batches)} files, {failed} errors')
sys.exit(1 if failed else 0)
