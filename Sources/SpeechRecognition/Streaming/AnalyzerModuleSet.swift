import Synchronization

/// The modules an analysis is running, shared between the ``SpeechAnalyzer`` actor, which changes
/// them in ``SpeechAnalyzer/setModules(_:)``, and the task that reads the input, which hands each
/// stretch of audio to the modules current at that moment.
final class AnalyzerModuleSet: Sendable {
  /// A running module, with its analysis of live input when the input is a sequence.
  struct Entry: Sendable {
    /// The module; nil for a live analysis fed without one (tests of the feed).
    let module: (any AnalyzableModule)?
    let live: (any LiveModuleAnalysis)?
  }

  private let entries: Mutex<[Entry]>

  /// An empty set, filled when an analysis starts.
  init() { entries = Mutex([]) }

  /// A set of live analyses without modules, for driving a ``LiveAnalysis`` directly.
  init(liveAnalyses: [any LiveModuleAnalysis]) {
    entries = Mutex(liveAnalyses.map { Entry(module: nil, live: $0) })
  }

  /// The running modules, in the analyzer's order.
  var modules: [any AnalyzableModule] { entries.withLock { $0.compactMap(\.module) } }

  /// The running modules' live analyses.
  var liveAnalyses: [any LiveModuleAnalysis] { entries.withLock { $0.compactMap(\.live) } }

  /// Replaces the running modules with `newEntries`.
  func replace(with newEntries: [Entry]) {
    entries.withLock { $0 = newEntries }
  }

  /// The entry running `module`, if it is running.
  func entry(for module: any AnalyzableModule) -> Entry? {
    entries.withLock { $0.first { $0.module === module } }
  }
}
