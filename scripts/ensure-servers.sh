#!/usr/bin/env bash
# Installs what the test suites need: Debian's redis-server (the tests run it on a free loopback
# port; nothing is left running) and the manifest tools. Run by `npm test`; a no-op when installed.
set -euo pipefail
if ! command -v redis-server >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ]; then
    echo "== installing redis-server (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  elif command -v sudo >/dev/null 2>&1; then
    echo "== installing redis-server (sudo apt-get)"
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  else
    echo "redis-server is missing and this user cannot install it: apt-get install -y redis-server" >&2
    exit 1
  fi
fi
# Debian's package starts a service on 6379 where systemd runs; the tests use their own server.
echo "== $(redis-server --version | cut -d' ' -f1-3)"

# Kafka: a single-node KRaft broker assembled from Maven Central jars (tools/kafka/pom.xml); the
# tests start it themselves (src/dev/kafka-broker.ts). Needs a JDK 17 and Maven.
if ! command -v java >/dev/null 2>&1 || ! command -v mvn >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ]; then
    echo "== installing a JDK and Maven (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jdk-headless maven >/dev/null
  else
    echo "java and mvn are needed for the Kafka tests: apt-get install -y openjdk-17-jdk-headless maven" >&2
    exit 1
  fi
fi
KAFKA_DIR="$(cd "$(dirname "$0")/.." && pwd)/tools/kafka"
if ! ls "$KAFKA_DIR"/target/libs/kafka_2.13-*.jar >/dev/null 2>&1; then
  echo "== fetching the Kafka broker jars (mvn package in tools/kafka)"
  mvn -B -q -f "$KAFKA_DIR/pom.xml" package
fi
echo "== kafka $(ls "$KAFKA_DIR"/target/libs/kafka_2.13-*.jar | sed -e 's/.*kafka_2.13-//' -e 's/\.jar$//') jars in tools/kafka/target/libs"
# Chromium for the story desk test (test/web/desk.test.ts renders the page headless). Outside
# CI, without it, that test prints why it skips; in CI (CI=true) a missing Chromium fails here,
# since a skipped suite would fail the run anyway (test/support/allowed-skips.ts).
IN_CI=false
case "${CI:-}" in "" | false | 0) ;; *) IN_CI=true ;; esac
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ]; then
    echo "== installing chromium (apt-get)"
    apt-get update -qq
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; then
      if [ "$IN_CI" = true ]; then
        echo "chromium could not be installed, and CI runs test/web/desk.test.ts" >&2
        exit 1
      fi
      echo "chromium could not be installed: test/web/desk.test.ts will skip" >&2
    fi
  elif [ "$IN_CI" = true ]; then
    echo "chromium is missing and this user cannot install it (apt-get install -y chromium); CI runs test/web/desk.test.ts" >&2
    exit 1
  else
    echo "chromium is missing (apt-get install -y chromium): test/web/desk.test.ts will skip" >&2
  fi
fi
command -v chromium >/dev/null 2>&1 && echo "== $(chromium --version 2>/dev/null | head -1)"
# helm, kubeconform and the Kubernetes schemas for test/deploy (no-op when present).
bash "$(dirname "$0")/ensure-k8s-tools.sh"
