#!/usr/bin/env bash
# Collects what accel-burn-cuda's tests and bench need on the GPU machine into .gpu/lib of the
# project root: the module's jars, its runtime + test dependencies (JUnit itself comes from the
# console launcher, so JUnit jars are left out), the test classes as a jar, and
# junit-platform-console-standalone 1.11.4. Run here, from anywhere in the checkout:
#   bash accel-burn-cuda/gpu/collect-jars.sh
# Then (once) bash ../shared/gpu/make-runtime.sh for .gpu/jdk, and send .gpu along.
set -euo pipefail
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
lib=.gpu/lib
rm -rf "$lib"
mkdir -p "$lib"
# Third-party jars only (JBurn's own modules come from this checkout's builds below, never from ~/.m2).
./mvnw -B -o -q -pl accel-burn-cuda -am package -DskipTests dependency:copy-dependencies -DincludeScope=test \
    -DoutputDirectory="$root/$lib" -DexcludeGroupIds=dev.jburn,org.junit.jupiter,org.junit.platform,org.opentest4j,org.apiguardian
for m in engine-api engine-reference accel-kernels conformance-tests engine-nn accel-burn-cuda; do
    cp "$m/target/$m-0.1.0-SNAPSHOT.jar" "$lib/"
done
"$JAVA_HOME/bin/jar" cf "$lib/accel-burn-cuda-tests.jar" -C accel-burn-cuda/target/test-classes .
./mvnw -B -o -q -N dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:1.11.4 -DoutputDirectory="$root/$lib"
"$JAVA_HOME/bin/jar" tf "$lib/accel-kernels-0.1.0-SNAPSHOT.jar" | grep -q dev/jburn/kernels/Emitter.class \
    || { echo "accel-kernels jar lacks the emitter: stale build" >&2; exit 1; }
du -sh "$lib"
ls "$lib"
