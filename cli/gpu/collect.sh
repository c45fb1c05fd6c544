#!/usr/bin/env bash
# Prepares .gpu/ for a jburn train run on the H200 (see ../shared/gpu/README.md): the cli's jars and the cuda engine in
# .gpu/lib, the packed runtime (with java.desktop, for the PNG) and a Fashion-MNIST cut (the first N training images,
# the whole test set) in .gpu/data, under the device tool's 64 MiB. Run from anywhere in the checkout:
#   bash cli/gpu/collect.sh [N=30000]
set -euo pipefail
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
./mvnw -B -q -o -pl cli,accel-burn-cuda -am package -DskipTests
rm -rf .gpu/lib .gpu/data && mkdir -p .gpu/lib .gpu/data
cp cli/target/cli-0.1.0-SNAPSHOT.jar cli/target/lib/*.jar accel-burn-cuda/target/accel-burn-cuda-0.1.0-SNAPSHOT.jar \
   accel-kernels/target/accel-kernels-0.1.0-SNAPSHOT.jar .gpu/lib/
# the freshly built JBurn jars win over cli/target/lib's copies (same names)
for m in engine-api engine-reference engine-nn examples; do cp "$m/target/$m-0.1.0-SNAPSHOT.jar" .gpu/lib/; done
python3 cli/tools/make-fashion-subset.py "${1:-30000}" 10000 .gpu/data
[ -f .gpu/jdk.tar.xz ] || PACK=1 bash ../shared/gpu/make-runtime.sh
du -sh .gpu/lib .gpu/data .gpu/jdk.tar.xz
