import Foundation
import ModelSupport

/// A terminal of a fixed size for tests: a detached tmux session on its own server socket, in
/// which a command runs while its standard error goes to a file; what the terminal held,
/// scrollback included, is read back as text.
public struct TerminalPane: Sendable {
  /// What a command left behind.
  public struct Run: Sendable {
    /// The exit status.
    public var status: Int32
    /// Everything the pane held when the command ended, scrollback first, wrapped rows joined.
    public var scrollback: String
    /// The same rows with the terminal's styles kept as escape sequences (bold, dim), for telling
    /// apart lines that read alike but look different.
    public var styledScrollback: String
    /// What the command wrote to standard error.
    public var standardError: String
  }

  /// A tmux command that failed.
  public struct Failure: Error {
    /// The command.
    public var command: String
    /// Its exit status.
    public var status: Int32
  }

  private let socket: String
  private let folder: URL
  private let columns: Int
  private let rows: Int

  /// A pane of `columns` by `rows`, with its files in `folder`.
  public init(columns: Int, rows: Int, folder: URL) throws {
    socket = "vn-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    self.folder = folder
    self.columns = columns
    self.rows = rows
    try Data("set -g history-limit 100000\nset -g remain-on-exit on\n".utf8)
      .write(to: folder.appendingPathComponent("tmux.conf"))
  }

  /// Runs the shell `command` in the pane and waits (at most `timeout` seconds) for it to end.
  public func run(_ command: String, timeout: TimeInterval) throws -> Run {
    try start(command)
    return try waitForExit(timeout: timeout)
  }

  /// Starts the shell `command` in the pane, its standard error going to a file.
  public func start(_ command: String) throws {
    let script = folder.appendingPathComponent("run.sh")
    try Data("\(command) 2>'\(errorsFile.path)'\necho $? > '\(statusFile.path)'\n".utf8).write(to: script)
    // The tmux server outlives the client: its output goes nowhere, so no pipe stays open.
    try tmux(
      "-f '\(folder.appendingPathComponent("tmux.conf").path)' new-session -d -s test -x \(columns) -y \(rows) "
        + "'sh \(script.path)'")
  }

  /// Types `keys` into the pane (tmux key names, such as `Space` or `q`).
  public func send(_ keys: String) throws { try tmux("send-keys -t test \(keys)") }

  /// What the pane shows now (the visible rows only).
  public func screen() throws -> String {
    let capture = folder.appendingPathComponent("screen.txt")
    try tmux("capture-pane -p -t test > '\(capture.path)'")
    return (try? String(contentsOf: capture, encoding: .utf8)) ?? ""
  }

  /// Every row the pane holds, scrollback first, as the terminal shows them (wrapped rows apart).
  public func screenRows() throws -> [String] {
    let capture = folder.appendingPathComponent("rows.txt")
    try tmux("capture-pane -p -S - -E - -t test > '\(capture.path)'")
    return Self.withoutTmuxNotice((try? String(contentsOf: capture, encoding: .utf8)) ?? "")
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// Waits (at most `timeout` seconds) for the command to end, then reads what it left.
  public func waitForExit(timeout: TimeInterval) throws -> Run {
    let deadline = Date().addingTimeInterval(timeout)
    while !FileManager.default.fileExists(atPath: statusFile.path) && Date() < deadline { usleep(50_000) }
    let code = (try? String(contentsOf: statusFile, encoding: .utf8)).flatMap {
      Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    let capture = folder.appendingPathComponent("pane.txt")
    try tmux("capture-pane -p -J -S - -E - -t test > '\(capture.path)'")
    let styled = folder.appendingPathComponent("styled-pane.txt")
    try tmux("capture-pane -p -e -J -S - -E - -t test > '\(styled.path)'")
    return Run(
      status: code ?? -1, scrollback: Self.withoutTmuxNotice((try? String(contentsOf: capture, encoding: .utf8)) ?? ""),
      styledScrollback: Self.withoutTmuxNotice((try? String(contentsOf: styled, encoding: .utf8)) ?? ""),
      standardError: (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? "")
  }

  /// The pane's text without the line tmux adds when the command has ended ("Pane is dead").
  private static func withoutTmuxNotice(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("Pane is dead") }
      .joined(separator: "\n")
  }

  private var statusFile: URL { folder.appendingPathComponent("status") }
  private var errorsFile: URL { folder.appendingPathComponent("stderr.log") }

  /// Ends the tmux server.
  public func close() { try? tmux("kill-server") }

  /// Runs a tmux client with no descriptor of ours but the standard three: the server it starts
  /// inherits the client's descriptors, and one that Foundation watches (a pipe, or what tells it
  /// the child ended) would otherwise stay open as long as the server runs.
  private func tmux(_ arguments: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    let closeInherited =
      #"for fd in /proc/$$/fd/*; do n=${fd##*/}; if [ "$n" -gt 2 ] 2>/dev/null; then eval "exec $n>&-"; fi; done; "#
    process.arguments = ["-c", closeInherited + "exec tmux -L \(socket) \(arguments)"]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.runWithDefaultSignals()
    let deadline = Date().addingTimeInterval(30)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    guard !process.isRunning else {
      process.terminate()
      throw Failure(command: "tmux \(arguments)", status: -1)
    }
    if process.terminationStatus != 0 { throw Failure(command: "tmux \(arguments)", status: process.terminationStatus) }
  }
}
