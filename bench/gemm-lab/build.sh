#!/bin/bash
# Compiles the GEMM lab (package dev.jburn.reference, so it reaches the package-private GEMM) into
# bench/gemm-lab/target/lab against engine-reference's classes (build them first:
# ./mvnw -B -o -q -pl engine-reference compile). Run a lab class with
#   java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
#     -cp bench/gemm-lab/target/lab:engine-reference/target/classes:$API dev.jburn.reference.KernelLab rowrun 384 96 768 2048 0.25
# where API is ~/.m2/repository/dev/jburn/engine-api/0.1.0-SNAPSHOT/engine-api-0.1.0-SNAPSHOT.jar.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
J=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
API=$HOME/.m2/repository/dev/jburn/engine-api/0.1.0-SNAPSHOT/engine-api-0.1.0-SNAPSHOT.jar
mkdir -p "$here/target/lab"
"$J/bin/javac" --add-modules jdk.incubator.vector -nowarn -d "$here/target/lab" \
  -cp "${CLASSES:-$root/engine-reference/target/classes}:$API" "$here"/src/dev/jburn/reference/*.java
