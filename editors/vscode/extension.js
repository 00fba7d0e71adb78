// The wfc extension: starts `wfc lsp` (the binary named by the wfc.path
// setting) as the language server of .wf files.
"use strict";
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("wfc").get("path") || "wfc";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient("wfc", "wfc", { run: server, debug: server }, {
    documentSelector: [{ language: "wfc" }],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.wf") },
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
