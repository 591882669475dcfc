/// How a buffer scheduled on an ``AVAudioPlayerNode`` plays, as AVFoundation's options say.
public struct AVAudioPlayerNodeBufferOptions: OptionSet, Sendable {
  /// The options as bits.
  public let rawValue: UInt

  /// Options from their raw bits.
  public init(rawValue: UInt) { self.rawValue = rawValue }

  /// Play the buffer again and again until something interrupts it or the player stops.
  public static let loops = AVAudioPlayerNodeBufferOptions(rawValue: 1 << 0)
  /// Drop what is scheduled and stop what is playing, then play this buffer.
  public static let interrupts = AVAudioPlayerNodeBufferOptions(rawValue: 1 << 1)
  /// Drop what is scheduled, let a looping buffer finish its pass, then play this buffer.
  public static let interruptsAtLoop = AVAudioPlayerNodeBufferOptions(rawValue: 1 << 2)
}
