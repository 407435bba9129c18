#!/usr/bin/env node
// The `agent-lsp` command of the npm package: finds the prebuilt binary in the platform package
// npm installed beside this one (an optional dependency: npm installs only the one whose `os` and
// `cpu` fit the machine) and runs it with this command's arguments. stdin, stdout and stderr are
// the binary's own (`agent-lsp serve` speaks LSP over stdio through this launcher), its exit
// status is this one's, and SIGINT, SIGTERM and SIGHUP are passed on to it.
//
// AGENT_LSP_BINARY=/path/to/agent-lsp runs that binary instead (for debugging a build).
// Written for old Node versions too (no newer syntax), so that a Node below the floor gets the
// message below rather than a syntax error.
"use strict";

var childProcess = require("child_process");
var path = require("path");

var MIN_NODE_MAJOR = 18;
var INSTALL_HINT =
  "Install the binary with Rust instead: `cargo install --locked agent-lsp`, or from the repository " +
  "with `cargo install --locked --git <repository URL> agent-lsp`; then run `agent-lsp` itself " +
  "(or point AGENT_LSP_BINARY at it).";

function fail(message) {
  process.stderr.write("agent-lsp (npm launcher): " + message + "\n");
  process.exit(2);
}

var nodeMajor = parseInt(process.versions.node.split(".")[0], 10);
if (!(nodeMajor >= MIN_NODE_MAJOR)) {
  fail("Node.js " + process.versions.node + " is too old; the npm package needs Node.js " +
    MIN_NODE_MAJOR + " or later. " + INSTALL_HINT);
}

// The platform packages that exist, by `${process.platform}-${process.arch}`.
var PLATFORMS = {
  "linux-x64": "agent-lsp-linux-x64",
  "linux-arm64": "agent-lsp-linux-arm64",
  "darwin-x64": "agent-lsp-darwin-x64",
  "darwin-arm64": "agent-lsp-darwin-arm64",
  "win32-x64": "agent-lsp-win32-x64"
};

function findBinary() {
  var override = process.env.AGENT_LSP_BINARY;
  if (override) {
    return override;
  }
  // AGENT_LSP_TEST_PLATFORM stands in for this machine's platform in npm/test.sh.
  var platform = process.env.AGENT_LSP_TEST_PLATFORM || (process.platform + "-" + process.arch);
  var pkg = PLATFORMS[platform];
  if (!pkg) {
    fail("no prebuilt binary for " + platform + " (there are packages for " +
      Object.keys(PLATFORMS).join(", ") + "; for this platform the package would be agent-lsp-" +
      platform + "). " + INSTALL_HINT);
  }
  var manifest;
  try {
    manifest = require.resolve(pkg + "/package.json");
  } catch (e) {
    fail("the package " + pkg + " (the binary for " + platform + ") is not installed. npm installs " +
      "it as an optional dependency of agent-lsp: it is missing when npm ran with --omit=optional " +
      "or --no-optional, or when node_modules was copied from another platform; reinstall " +
      "agent-lsp here. " + INSTALL_HINT);
  }
  return path.join(path.dirname(manifest), "bin", platform.indexOf("win32") === 0 ? "agent-lsp.exe" : "agent-lsp");
}

var binary = findBinary();
var child = childProcess.spawn(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });

var FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"];
var handlers = {};
FORWARDED.forEach(function (signal) {
  handlers[signal] = function () {
    try {
      child.kill(signal);
    } catch (e) {
      // The child is gone already; its exit event ends this process.
    }
  };
  try {
    process.on(signal, handlers[signal]);
  } catch (e) {
    // SIGHUP cannot be listened to on some platforms (Windows).
  }
});

child.on("error", function (err) {
  fail("could not run " + binary + ": " + err.message + ". " + INSTALL_HINT);
});

child.on("exit", function (code, signal) {
  if (signal) {
    // Die of the same signal, so that the caller sees what the binary saw.
    FORWARDED.forEach(function (s) {
      process.removeListener(s, handlers[s]);
    });
    process.kill(process.pid, signal);
    // Should the signal not end this process (ignored by the parent), say so by the status.
    setTimeout(function () { process.exit(128 + (require("os").constants.signals[signal] || 0)); }, 100);
    return;
  }
  process.exit(code === null ? 1 : code);
});
