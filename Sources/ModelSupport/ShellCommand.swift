import Foundation

/// Runs an external program (pip, unzip, sha256sum) and turns failure into a ``ModelAssetError``.
package enum ShellCommand {
  /// Runs `arguments` (the first is looked up on PATH), writing its output to `output` when given;
  /// returns standard output otherwise. Standard error is kept for the error message.
  @discardableResult
  package static func run(_ arguments: [String], output: URL? = nil) throws(ModelAssetError) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let errorPipe = Pipe()
    process.standardError = errorPipe
    let outputPipe = Pipe()
    var outputHandle: FileHandle?
    if let output {
      _ = FileManager.default.createFile(atPath: output.path, contents: nil)
      outputHandle = FileHandle(forWritingAtPath: output.path)
      process.standardOutput = outputHandle
    } else {
      process.standardOutput = outputPipe
    }
    let command = arguments.prefix(3).joined(separator: " ")
    do {
      try process.runWithDefaultSignals()
    } catch {
      throw .toolFailed(command: command, detail: error.localizedDescription)
    }
    let stdout = output == nil ? outputPipe.fileHandleForReading.readDataToEndOfFile() : Data()
    let stderr = errorPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try? outputHandle?.close()
    guard process.terminationStatus == 0 else {
      let message =
        String(decoding: stderr, as: UTF8.self)
        .split(separator: "\n").last.map(String.init) ?? "exit status \(process.terminationStatus)"
      throw .toolFailed(command: command, detail: message)
    }
    return String(decoding: stdout, as: UTF8.self)
  }

  /// The sha256 of the file at `url`, as lowercase hex.
  package static func sha256(of url: URL) throws(ModelAssetError) -> String {
    let line = try run(["sha256sum", url.path])
    return String(line.prefix(64))
  }
}
