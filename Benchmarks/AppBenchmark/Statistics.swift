import Foundation

/// Medians and percentiles of measured times.
enum Statistics {
  /// The value below which `fraction` of `values` lie (nearest rank).
  static func percentile(_ values: [Double], _ fraction: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }

  /// The median of `values`.
  static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

  /// Seconds taken by `body`, on the monotonic clock.
  static func time<T>(_ body: () async throws -> T) async rethrows -> (T, Double) {
    let clock = ContinuousClock()
    var result: T?
    let elapsed = try await clock.measure { result = try await body() }
    return (result!, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
  }
}
