/// CMTime's stored form: `value` and `timescale`, as before special times existed, plus `flags`
/// and `epoch` only when they are not those of a plain valid time, so older files still read.
extension CMTime: Codable {
  private enum CodingKeys: String, CodingKey {
    case value, timescale, flags, epoch
  }

  /// Reads a time; one stored without flags is a valid time (or invalid, for a timescale that is
  /// not positive).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let value = try container.decode(CMTimeValue.self, forKey: .value)
    let timescale = try container.decode(CMTimeScale.self, forKey: .timescale)
    let flags =
      try container.decodeIfPresent(UInt32.self, forKey: .flags).map(CMTimeFlags.init(rawValue:))
      ?? (timescale > 0 ? .valid : [])
    let epoch = try container.decodeIfPresent(CMTimeEpoch.self, forKey: .epoch) ?? 0
    self.init(value: value, timescale: timescale, flags: flags, epoch: epoch)
  }

  /// Writes the time.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(value, forKey: .value)
    try container.encode(timescale, forKey: .timescale)
    if flags != .valid { try container.encode(flags.rawValue, forKey: .flags) }
    if epoch != 0 { try container.encode(epoch, forKey: .epoch) }
  }
}
