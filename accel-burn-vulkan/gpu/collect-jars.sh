#!/usr/bin/env bash
# Prepares what gpu/run-h200.sh needs on a machine with no Maven and no network:
#   .gpu/lib/     the Vulkan module's runtime + test class path (natives-linux only), the module jar, its
#                 test classes as a jar, and junit-platform-console-standalone 1.11.4 (JUnit itself is inside it)
#   .gpu/vulkan/  the unpacked Debian libvulkan1 package (the Vulkan loader, libvulkan.so.1)
# Run from anywhere on a machine with JDK 25, Maven (online once, or a filled ~/.m2) and apt-get.
# The JDK for the GPU machine (.gpu/jdk, a jlink'd runtime) is provided separately.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
MVN="${MVN:-mvn}"
OFFLINE="${MVN_OFFLINE--o}"   # set MVN_OFFLINE= to let Maven download
LIB=.gpu/lib
CONSOLE_VERSION=1.11.4

rm -rf "$LIB"
mkdir -p "$LIB"

# 1. Build the module and its siblings (no tests), then copy the test class path of the module.
#    JUnit/opentest4j/apiguardian are left out: the console launcher jar contains them.
"$MVN" -B -q $OFFLINE -pl accel-burn-vulkan -am package -DskipTests
"$MVN" -B -q $OFFLINE -pl accel-burn-vulkan -am dependency:copy-dependencies \
  -DincludeScope=test -DoutputDirectory="$ROOT/$LIB" \
  -DexcludeGroupIds=org.junit.jupiter,org.junit.platform,org.opentest4j,org.apiguardian,org.openjdk.jmh
# copy-dependencies runs in every reactor module; sibling modules' own jars come from their target/.
for m in engine-api engine-reference accel-kernels conformance-tests accel-burn-vulkan; do
  cp "$m/target/$m-0.1.0-SNAPSHOT.jar" "$LIB/"
done
"$JAVA_HOME/bin/jar" --create --file "$LIB/accel-burn-vulkan-0.1.0-SNAPSHOT-tests.jar" -C accel-burn-vulkan/target/test-classes .
# Keep natives for linux x86_64 only (the GPU machine), nothing for other platforms.
rm -f "$LIB"/*natives-{windows,macos,linux-arm64,linux-arm32,linux-riscv64,linux-ppc64le,freebsd}*.jar 2>/dev/null || true

# The device tool carries at most 64 MiB: LWJGL's Vulkan Video std headers (org/lwjgl/vulkan/video, ~0.5 MB
# packed) are never loaded by the engine, so they stay behind.
zip -q -d "$LIB"/lwjgl-vulkan-*.jar 'org/lwjgl/vulkan/video/*' || true

# 2. The JUnit console launcher.
"$MVN" -B -q $OFFLINE dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:$CONSOLE_VERSION \
  -DoutputDirectory="$ROOT/$LIB"
mv "$LIB/junit-platform-console-standalone-$CONSOLE_VERSION.jar" "$LIB/junit-platform-console-standalone.jar"

# 3. The Vulkan loader from Debian's libvulkan1 package, unpacked (no root needed).
rm -rf .gpu/vulkan
mkdir -p .gpu/vulkan
TMP="$(mktemp -d)"
chmod 755 "$TMP"   # apt-get downloads as user _apt
( cd "$TMP" && apt-get download libvulkan1 >/dev/null )
dpkg -x "$TMP"/libvulkan1_*.deb .gpu/vulkan
rm -rf "$TMP"
test -e .gpu/vulkan/usr/lib/x86_64-linux-gnu/libvulkan.so.1

# 4. This machine's SPIR-V cache (if a Vulkan run filled it, e.g. the kit on lavapipe), packed small, so the GPU
#    machine's first kit run does not spend minutes in shaderc (run-h200.sh unpacks it). Kernels depend on the
#    generated shapes, so fill it with the seed run-h200.sh uses:
#      mvn -o -pl accel-burn-vulkan test -Dtest=VulkanConformanceTest -DQT_SEED=20261130 -Djburn.vulkan.cacheDir=/tmp/spv
#      JBURN_VULKAN_CACHE=/tmp/spv accel-burn-vulkan/gpu/collect-jars.sh
SPV="${JBURN_VULKAN_CACHE:-$HOME/.cache/jburn/vulkan}"
rm -f .gpu/vulkan-spv.tar.xz
if [ -d "$SPV" ]; then
  tar cJf .gpu/vulkan-spv.tar.xz -C "$(dirname "$SPV")" "$(basename "$SPV")"
  echo "packed $(ls "$SPV" | wc -l) cached SPIR-V files into .gpu/vulkan-spv.tar.xz ($(du -h .gpu/vulkan-spv.tar.xz | cut -f1))"
fi

echo "collected into $ROOT/.gpu:"
ls -la "$LIB"
du -sh "$LIB" .gpu/vulkan
TOTAL_KB=$(du -sk "$LIB" | cut -f1)
if [ "$TOTAL_KB" -gt $((19 * 1024)) ]; then
  echo "WARNING: .gpu/lib is ${TOTAL_KB} KB, over the 19 MB budget" >&2
fi
