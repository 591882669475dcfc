import Foundation

/// Hears a recognition task's progress, as the delegate form of
/// ``SFSpeechRecognizer/recognitionTask(with:delegate:)`` reports it. Every method is optional.
public protocol SFSpeechRecognitionTaskDelegate: AnyObject {
  /// Speech was first detected in the audio.
  func speechRecognitionDidDetectSpeech(_ task: SFSpeechRecognitionTask)
  /// A partial transcription of the audio so far.
  func speechRecognitionTask(
    _ task: SFSpeechRecognitionTask, didHypothesizeTranscription transcription: SFTranscription)
  /// The final result.
  func speechRecognitionTask(
    _ task: SFSpeechRecognitionTask, didFinishRecognition recognitionResult: SFSpeechRecognitionResult)
  /// All the audio has been read (the request ended or the file was read to its end).
  func speechRecognitionTaskFinishedReadingAudio(_ task: SFSpeechRecognitionTask)
  /// The task was cancelled.
  func speechRecognitionTaskWasCancelled(_ task: SFSpeechRecognitionTask)
  /// The task ended; `successfully` is false when it ended with an error (see the task's `error`).
  func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool)
  /// Audio up to `duration` seconds has been processed.
  func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didProcessAudioDuration duration: TimeInterval)
}

extension SFSpeechRecognitionTaskDelegate {
  /// Does nothing unless implemented.
  public func speechRecognitionDidDetectSpeech(_ task: SFSpeechRecognitionTask) {}
  /// Does nothing unless implemented.
  public func speechRecognitionTask(
    _ task: SFSpeechRecognitionTask, didHypothesizeTranscription transcription: SFTranscription
  ) {}
  /// Does nothing unless implemented.
  public func speechRecognitionTask(
    _ task: SFSpeechRecognitionTask, didFinishRecognition recognitionResult: SFSpeechRecognitionResult
  ) {}
  /// Does nothing unless implemented.
  public func speechRecognitionTaskFinishedReadingAudio(_ task: SFSpeechRecognitionTask) {}
  /// Does nothing unless implemented.
  public func speechRecognitionTaskWasCancelled(_ task: SFSpeechRecognitionTask) {}
  /// Does nothing unless implemented.
  public func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool) {}
  /// Does nothing unless implemented.
  public func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didProcessAudioDuration duration: TimeInterval) {}
}
