import Foundation

/// Facts about this machine that every engine needs, read once: whether the CPU can run the
/// engine build, how many threads to give an engine, and where the checkout the program was built
/// in keeps its files.
package enum EngineHost {
  /// The CPU features the engine build needs but this CPU lacks (empty when it can run it).
  package static let missingCPUFeatures: [String] = {
    #if arch(x86_64)
      guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
        let flagsLine = info.split(separator: "\n").first(where: { $0.hasPrefix("flags") })
      else { return [] }
      let flags = Set(flagsLine.split(separator: " ").map(String.init))
      return ["avx2", "fma", "f16c"].filter { !flags.contains($0) }
    #else
      return []
    #endif
  }()

  /// Why the engines cannot run here, or nil when they can.
  package static var unsupportedReason: String? {
    missingCPUFeatures.isEmpty
      ? nil : "the CPU lacks \(missingCPUFeatures.joined(separator: ", ")), which the engine build needs"
  }

  /// Threads for an engine: ``EngineConfiguration/threads``.
  package static var threadCount: Int { EngineConfiguration.current.threads }

  /// Our script `name` (a model converter): in the checkout's `scripts/` the program was built
  /// in, else in the share folder next to the installed program (`<prefix>/share/voicenotes`).
  package static func script(named name: String) -> URL? {
    if let script = checkoutFolder("scripts/\(name)") { return script }
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    let shared = URL(fileURLWithPath: executable).deletingLastPathComponent()
      .appendingPathComponent("../share/voicenotes/\(name)").standardizedFileURL
    return FileManager.default.fileExists(atPath: shared.path) ? shared : nil
  }

  /// The folder at `relativePath` in the checkout the running program was built in (found by
  /// walking up from the executable), or nil when the program does not run from a checkout.
  package static func checkoutFolder(_ relativePath: String) -> URL? {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments.first ?? ""
    var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
    for _ in 0..<6 {
      let candidate = folder.appendingPathComponent(relativePath, isDirectory: true)
      if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
      folder.deleteLastPathComponent()
    }
    return nil
  }
}
