#!/usr/bin/env bash
# JBurn from outside, as a newcomer gets it: installs the dev.jburn artifacts, then builds and runs,
# as separate Maven projects against them (offline, from ~/.m2), the root README's first program
# (docs/first-program) and the kit README's example engine (conformance-tests/example-engine):
#   1. the program on cpu, started as the README says;
#   2. the same program without --add-modules jdk.incubator.vector: same results, scalar kernels, one log line;
#   3. with the Vulkan jar added at runtime scope, on Vulkan (lavapipe; skipped without a Vulkan driver);
#   4. with the Vulkan jar and no Vulkan driver visible: falls back to cpu with one true log line;
#   5. the example engine running the whole conformance kit.
# Run by .ci/run after the main build's tests (which cover the same modules); MAVEN_ARGS reaches every
# Maven call (e.g. MAVEN_ARGS=-Dmaven.repo.local=/tmp/m2 to keep ~/.m2 untouched while trying it).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
export PATH="$JAVA_HOME/bin:$PATH"
mvn() { "$root/mvnw" -B -q -o "$@"; }
fail() { echo "outsider: FAIL: $*" >&2; exit 1; }
out="$root/target/outsider"
rm -rf "$out" && mkdir -p "$out"
t0=$SECONDS

if [ -z "${OUTSIDER_NO_INSTALL:-}" ]; then # set it to reuse what an earlier run installed
  echo "outsider: installing the dev.jburn artifacts the projects use"
  mvn install -Dmaven.test.skip=true -Djburn.javadoc.skip=true -pl engine-api,engine-reference,engine-nn,accel-kernels,conformance-tests,accel-burn-vulkan -am
  echo "outsider: installed in $((SECONDS - t0)) s"
fi

program="$root/docs/first-program"
(cd "$program" && rm -rf target && mvn compile dependency:build-classpath -Dmdep.outputFile=target/cpu.classpath \
    && mvn dependency:build-classpath -Pvulkan -Dmdep.outputFile=target/vulkan.classpath)
cpu_cp="$program/target/classes:$(cat "$program/target/cpu.classpath")"
vulkan_cp="$program/target/classes:$(cat "$program/target/vulkan.classpath")"

# The program's results, whatever the engine: engine name and values.
expect_results() { # file engine
  grep -q "a.dot(a.transpose()) = Tensor<f32\[2,2\] $2>" "$1" || fail "$1: no f32[2,2] result on $2: $(cat "$1")"
  tr -d '\n ' < "$1" | grep -q '\[\[14.0,32.0\],\[32.0,77.0\]\]' || fail "$1: wrong a.dot(a.transpose()): $(cat "$1")"
  tr -d '\n ' < "$1" | grep -q '\[6.0,15.0\]' || fail "$1: wrong row sums: $(cat "$1")"
  tr -d '\n ' < "$1" | grep -q '\[\[2.0,4.0,6.0\],\[8.0,10.0,12.0\]\]' || fail "$1: wrong gradient: $(cat "$1")"
}
# Exactly one stderr line contains $2.
expect_one_line() { # file text
  n=$(grep -c -- "$2" "$1" || true)
  [ "$n" = 1 ] || fail "$1: expected one line with '$2', found $n: $(cat "$1")"
}

echo "outsider: first program built in $((SECONDS - t0)) s; 1. first program on cpu, started as the README says"
java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -cp "$cpu_cp" com.example.hello.Hello \
    > "$out/cpu.out" 2> "$out/cpu.err" || fail "cpu run: $(cat "$out/cpu.err")"
expect_results "$out/cpu.out" cpu
! grep -q 'scalar kernels' "$out/cpu.err" || fail "cpu run with the Vector API logged scalar kernels: $(cat "$out/cpu.err")"
! grep -q 'default engine' "$out/cpu.err" || fail "cpu run logged a fallback: $(cat "$out/cpu.err")"

echo "outsider: 2. without --add-modules jdk.incubator.vector"
java --enable-native-access=ALL-UNNAMED -cp "$cpu_cp" com.example.hello.Hello > "$out/scalar.out" 2> "$out/scalar.err" \
    || fail "run without the Vector API: $(cat "$out/scalar.err")"
expect_results "$out/scalar.out" cpu
expect_one_line "$out/scalar.err" "the cpu engine runs its scalar kernels"
expect_one_line "$out/scalar.err" "add-modules jdk.incubator.vector"

vk_flags=(--add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED)
if ls /usr/share/vulkan/icd.d/lvp_icd*.json > /dev/null 2>&1 && ldconfig -p 2>/dev/null | grep -q 'libvulkan\.so\.1'; then
  echo "outsider: 3. with accel-burn-vulkan at runtime scope, on lavapipe"
  java "${vk_flags[@]}" -Djburn.engine=vulkan -cp "$vulkan_cp" com.example.hello.Hello > "$out/vulkan.out" 2> "$out/vulkan.err" \
      || fail "vulkan run: $(cat "$out/vulkan.err")"
  expect_results "$out/vulkan.out" vulkan
else
  echo "outsider: 3. skipped: no Vulkan loader or lavapipe here"
fi

echo "outsider: 4. with accel-burn-vulkan and no Vulkan driver visible"
VK_DRIVER_FILES=/nonexistent/none.json VK_ICD_FILENAMES=/nonexistent/none.json \
    java "${vk_flags[@]}" -cp "$vulkan_cp" com.example.hello.Hello > "$out/headless.out" 2> "$out/headless.err" \
    || fail "headless run: $(cat "$out/headless.err")"
expect_results "$out/headless.out" cpu
expect_one_line "$out/headless.err" "the default engine is 'cpu' (vulkan unavailable: "
if ldconfig -p 2>/dev/null | grep -q 'libvulkan\.so\.1'; then
  expect_one_line "$out/headless.err" "no Vulkan driver found"
fi

echo "outsider: $((SECONDS - t0)) s; 5. the example engine runs the whole conformance kit (QT_EXAMPLES=${OUTSIDER_QT_EXAMPLES:=10} cases a property)"
engine="$root/conformance-tests/example-engine"
(cd "$engine" && rm -rf target && mvn test -DQT_EXAMPLES="$OUTSIDER_QT_EXAMPLES") > "$out/engine.log" 2>&1 || { tail -50 "$out/engine.log" >&2; fail "example engine kit"; }
report="$engine/target/surefire-reports/com.example.heap.HeapConformanceTest.txt"
[ -f "$report" ] || fail "the example engine ran no kit: no $report"
summary=$(grep -m1 'Tests run:' "$report")
run=$(sed -E 's/.*Tests run: ([0-9]+).*/\1/' <<< "$summary")
[ "$run" -ge 140 ] || fail "the example engine ran only $run contract tests: $summary"
grep -q 'Failures: 0, Errors: 0' <<< "$summary" || fail "example engine: $summary"

echo "outsider: all good in $((SECONDS - t0)) s ($summary)"
