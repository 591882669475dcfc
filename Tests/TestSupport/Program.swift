import Foundation
import ModelSupport

/// Runs a program to completion and captures what it printed.
public struct Program: Sendable {
  /// The exit status.
  public var status: Int32
  /// Everything written to standard output.
  public var standardOutput: String
  /// Everything written to standard error.
  public var standardError: String

  /// Runs `arguments` (the first looked up on PATH unless it is a path) in this process's
  /// environment with `environment` added and the variables named in `removing` taken out.
  public static func run(
    _ arguments: [String], environment: [String: String] = [:], removing: Set<String> = []
  ) throws -> Program {
    let process = Process()
    if arguments[0].contains("/") {
      process.executableURL = URL(fileURLWithPath: arguments[0])
      process.arguments = Array(arguments.dropFirst())
    } else {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = arguments
    }
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }.filter {
      !removing.contains($0.key)
    }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.runWithDefaultSignals()
    // Read both pipes concurrently so a chatty program cannot fill one and block.
    nonisolated(unsafe) var errorData = Data()
    let readers = DispatchGroup()
    DispatchQueue.global().async(group: readers) { errorData = error.fileHandleForReading.readDataToEndOfFile() }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    readers.wait()
    process.waitUntilExit()
    return Program(
      status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData, as: UTF8.self))
  }
}
