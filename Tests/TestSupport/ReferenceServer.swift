import Foundation
import ModelSupport
import Networking
import Synchronization

/// A real llama.cpp `llama-server` or whisper.cpp `whisper-server` (built by `make servers` into
/// `.deps/servers/bin`), started on a free loopback port for a test and stopped after it.
///
/// The server listens on 127.0.0.1 only, runs with two threads and `OMP_WAIT_POLICY=passive`
/// (so it does not spin while other work shares the cores), and is ready (its `/health` answers
/// 200, the model loaded) when ``start(_:model:arguments:readyTimeout:)`` returns. Its output
/// goes to ``logFile``, whose end failures quote.
///
/// ```swift
/// let server = try await ReferenceServer.start(.llama, model: Fixtures.models.appendingPathComponent("smollm-135m.gguf"))
/// defer { server.stop() }
/// let url = server.baseURL.appendingPathComponent("v1/chat/completions")
/// ```
public final class ReferenceServer: @unchecked Sendable {
  /// Which reference server.
  public enum Kind: String, Sendable {
    /// llama.cpp's OpenAI-compatible server (chat completions, `/tokenize`, `/v1/models`).
    case llama = "llama-server"
    /// whisper.cpp's server, its inference route at `/v1/audio/transcriptions`.
    case whisper = "whisper-server"
  }

  /// Which server this is.
  public let kind: Kind
  /// The loopback port it listens on.
  public let port: UInt16
  /// `http://127.0.0.1:<port>`, to append the API's paths to.
  public let baseURL: URL
  /// Where the server's standard output and error go.
  public let logFile: URL
  private let process: Process
  private let stopped = Mutex(false)

  private init(kind: Kind, port: UInt16, process: Process, logFile: URL) {
    self.kind = kind
    self.port = port
    self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
    self.process = process
    self.logFile = logFile
  }

  deinit { stop() }

  /// The folder the bootstrap links the servers into (`VOICENOTES_SERVERS` overrides it).
  public static var folder: URL {
    if let path = ProcessInfo.processInfo.environment["VOICENOTES_SERVERS"] { return URL(fileURLWithPath: path) }
    return Fixtures.root.appendingPathComponent(".deps/servers/bin")
  }

  /// The server's program.
  ///
  /// - Throws: ``ReferenceServerError/programMissing(_:)`` (run `make servers`) when it is not built.
  public static func program(_ kind: Kind) throws(ReferenceServerError) -> URL {
    let program = folder.appendingPathComponent(kind.rawValue)
    guard FileManager.default.isExecutableFile(atPath: program.path) else { throw .programMissing(program.path) }
    return program
  }

  /// Starts a `kind` server with `model` and `arguments` added to its command line (such as
  /// `["--parallel", "2", "-c", "4096"]`), and waits until it is ready.
  ///
  /// llama-server b11312 needs no flag for `tools` or `response_format` json_schema: its Jinja
  /// chat templates are on by default (`--jinja`), and `/props` reports the template's
  /// `supports_tools`. json_schema constrains the output. Tool calls come back as `tool_calls`
  /// only when the model writes the template's call syntax: the Qwen2.5-Coder models (qwen-0.5b,
  /// qwen-1.5b) answer a `tools` request with the call as plain JSON in `content`, without
  /// `<tool_call>` tags, even with `"tool_choice": "required"`. Pass `-c 4096` or so: the
  /// default context is the model's training context (32k for Qwen). whisper-server gets
  /// `--inference-path /v1/audio/transcriptions`. Both get `-t 2` unless `arguments` names the
  /// threads.
  ///
  /// - Throws: ``ReferenceServerError`` when the program is missing, exits, or is not ready
  ///   within `readyTimeout`.
  public static func start(
    _ kind: Kind, model: URL, arguments: [String] = [], readyTimeout: Duration = .seconds(60)
  ) async throws(ReferenceServerError) -> ReferenceServer {
    let program = try program(kind)
    guard FileManager.default.fileExists(atPath: model.path) else { throw .modelMissing(model.path) }
    let port = try freePort()
    var command = ["-m", model.path, "--host", "127.0.0.1", "--port", String(port)]
    if !arguments.contains("-t") && !arguments.contains("--threads") { command += ["-t", "2"] }
    if kind == .whisper && !arguments.contains("--inference-path") {
      command += ["--inference-path", "/v1/audio/transcriptions"]
    }
    command += arguments

    let logFile = FileManager.default.temporaryDirectory.appendingPathComponent(
      "voicenotes-\(kind.rawValue)-\(port)-\(UUID().uuidString.prefix(8)).log")
    _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
    let process = Process()
    process.executableURL = program
    process.arguments = command
    process.environment = ProcessInfo.processInfo.environment.merging(["OMP_WAIT_POLICY": "passive"]) { $1 }
    process.standardInput = FileHandle.nullDevice
    do {
      let log = try FileHandle(forWritingTo: logFile)
      process.standardOutput = log
      process.standardError = log
      try process.runWithDefaultSignals()
    } catch {
      throw .cannotStart(program.path, "\(error)")
    }
    let server = ReferenceServer(kind: kind, port: port, process: process, logFile: logFile)
    try await server.waitUntilReady(within: readyTimeout)
    return server
  }

  /// Whether the server's process is still running.
  public var isRunning: Bool { process.isRunning }

  /// The end of the server's output, for failure messages.
  public func logTail(lines: Int = 20) -> String {
    let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
  }

  /// Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. Idempotent.
  /// The log file goes too.
  public func stop() {
    if markStopped() && process.isRunning {
      process.terminate()
      let deadline = ContinuousClock.now + .seconds(5)
      while process.isRunning && ContinuousClock.now < deadline { usleep(20_000) }
      if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
    }
    process.waitUntilExit()
    try? FileManager.default.removeItem(at: logFile)
  }

  /// Kills the server at once (SIGKILL), as a crash would, and waits for it to exit: for tests
  /// of what a client sees when its server dies mid-request. The log stays until ``stop()``.
  public func kill() {
    guard markStopped() else { return }
    if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  private func markStopped() -> Bool {
    stopped.withLock { stopped in
      defer { stopped = true }
      return !stopped
    }
  }

  /// Polls `/health` until it answers 200 (the model loaded), the process exits, or `timeout` passes.
  private func waitUntilReady(within timeout: Duration) async throws(ReferenceServerError) {
    let started = ContinuousClock.now
    let health = HTTPClientRequest(
      url: baseURL.appendingPathComponent("health"), timeout: .seconds(2), connectTimeout: .seconds(1))
    while ContinuousClock.now - started < timeout {
      guard process.isRunning else {
        process.waitUntilExit()
        throw .exited(kind.rawValue, status: process.terminationStatus, log: logTail())
      }
      if let response = try? await HTTPClient.shared.send(health), response.status == 200 { return }
      try? await Task.sleep(for: .milliseconds(100))
    }
    let log = logTail()
    kill()
    throw .notReady(kind.rawValue, seconds: Int(timeout.components.seconds), log: log)
  }

  /// A loopback port nothing listens on now (the kernel's choice for port 0).
  public static func freePort() throws(ReferenceServerError) -> UInt16 {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw .noFreePort(String(cString: strerror(errno))) }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
      }
    }
    guard bound else { throw .noFreePort(String(cString: strerror(errno))) }
    return UInt16(bigEndian: address.sin_port)
  }
}

/// Why a ``ReferenceServer`` did not start.
public enum ReferenceServerError: Error, LocalizedError, Equatable {
  /// The server's program is not built.
  case programMissing(String)
  /// The model file does not exist.
  case modelMissing(String)
  /// The program could not be launched.
  case cannotStart(String, String)
  /// The server exited before it was ready.
  case exited(String, status: Int32, log: String)
  /// The server was not ready within the time allowed.
  case notReady(String, seconds: Int, log: String)
  /// No loopback port could be found.
  case noFreePort(String)

  /// What went wrong and what to do.
  public var errorDescription: String? {
    switch self {
    case .programMissing(let path): return "\(path) is not built; run make servers"
    case .modelMissing(let path): return "model \(path) is missing; run make models"
    case .cannotStart(let path, let reason): return "could not launch \(path): \(reason)"
    case .exited(let name, let status, let log):
      return "\(name) exited with status \(status) before it was ready:\n\(log)"
    case .notReady(let name, let seconds, let log):
      return "\(name) did not answer /health with 200 within \(seconds) s:\n\(log)"
    case .noFreePort(let reason): return "no free loopback port: \(reason)"
    }
  }
}
