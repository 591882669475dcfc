/// Hears how an ``AVAudioRecorder``'s recording ends, as AVFoundation's delegate does; both
/// methods have empty defaults, as Apple's optional ones.
public protocol AVAudioRecorderDelegate: AnyObject {
  /// A recording finished: stopped, its duration up, or cut short by the device (`flag` false,
  /// and the recorder's ``AVAudioRecorder/recordingError`` says why). Called on the main queue.
  func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool)

  /// Encoding failed. Not called here: a failure to encode or write ends the recording, and
  /// ``audioRecorderDidFinishRecording(_:successfully:)`` hears `false`.
  func audioRecorderEncodeErrorDidOccur(_ recorder: AVAudioRecorder, error: (any Error)?)
}

extension AVAudioRecorderDelegate {
  /// Does nothing.
  public func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {}

  /// Does nothing.
  public func audioRecorderEncodeErrorDidOccur(_ recorder: AVAudioRecorder, error: (any Error)?) {}
}
