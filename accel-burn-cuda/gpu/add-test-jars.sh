#!/usr/bin/env bash
# Adds what the cuda kit needs on the GPU machine to an existing .gpu/lib (after cli/gpu/collect.sh): the cuda
# module's test classes as a jar, the conformance kit and its test dependencies, the JUnit console launcher.
set -euo pipefail
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
lib=.gpu/lib
./mvnw -B -o -q -pl accel-burn-cuda -am test-compile dependency:copy-dependencies -DincludeScope=test \
    -DoutputDirectory="$root/$lib" -DexcludeGroupIds=dev.jburn,org.junit.jupiter,org.junit.platform,org.opentest4j,org.apiguardian
./mvnw -B -o -q -pl conformance-tests package -DskipTests -Djburn.javadoc.skip=true
cp conformance-tests/target/conformance-tests-0.1.0-SNAPSHOT.jar "$lib/"
"$JAVA_HOME/bin/jar" cf "$lib/accel-burn-cuda-tests.jar" -C accel-burn-cuda/target/test-classes .
./mvnw -B -q -N dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:1.11.4 -DoutputDirectory="$root/$lib"
du -sh "$lib"
