/// How a response is sampled: strategy, temperature and length.
public struct GenerationOptions: Sendable, Equatable, Codable {
  /// How each token is chosen.
  public struct SamplingMode: Sendable, Equatable, Codable {
    enum Mode: Sendable, Equatable, Codable {
      case greedy
      case topK(Int, seed: UInt64?)
      case topP(Double, seed: UInt64?)
    }

    let mode: Mode

    /// Always the most likely token: the same prompt gives the same answer.
    public static let greedy = SamplingMode(mode: .greedy)

    /// A random token among the `top` most likely; a `seed` makes it repeatable.
    public static func random(top: Int, seed: UInt64? = nil) -> SamplingMode {
      SamplingMode(mode: .topK(max(top, 1), seed: seed))
    }

    /// A random token among the most likely whose probabilities add up to `probabilityThreshold`.
    public static func random(probabilityThreshold: Double, seed: UInt64? = nil) -> SamplingMode {
      SamplingMode(mode: .topP(min(max(probabilityThreshold, 0), 1), seed: seed))
    }
  }

  /// The sampling strategy; nil lets the session choose (random with top-p 0.9).
  public var sampling: SamplingMode?
  /// Randomness from 0 (near-greedy) upwards; nil uses 0.7.
  public var temperature: Double?
  /// The most tokens the response may have; nil allows up to the context size.
  public var maximumResponseTokens: Int?

  /// Creates options; every argument is optional.
  public init(sampling: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
    self.sampling = sampling
    self.temperature = temperature
    self.maximumResponseTokens = maximumResponseTokens
  }

  /// The engine's sampling for these options; random sampling without a seed of its own uses
  /// `defaultSeed`, else a new one.
  func engineSampling(defaultSeed: UInt64?) -> LlamaSampling {
    func resolved(_ seed: UInt64?) -> UInt32 {
      UInt32(truncatingIfNeeded: seed ?? defaultSeed ?? UInt64.random(in: 0...UInt64(UInt32.max)))
    }
    let temperature = temperature ?? 0.7
    switch sampling?.mode {
    case .greedy:
      return .greedy
    case .topK(let top, let seed):
      return .random(topK: top, topP: nil, temperature: temperature, seed: resolved(seed))
    case .topP(let threshold, let seed):
      return .random(topK: nil, topP: threshold, temperature: temperature, seed: resolved(seed))
    case nil:
      return temperature <= 0 ? .greedy : .random(topK: 40, topP: 0.9, temperature: temperature, seed: resolved(nil))
    }
  }
}
