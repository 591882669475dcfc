@_exported import AudioIO
// Apple's app code gets `@Observable` through its framework imports; so does code ported here.
@_exported import Observation

// Apple's Speech framework names for types this module has under shorter names, and the
// AVFoundation types Speech code uses (re-exported, as `import Speech` brings AVFoundation's).

/// `SFCustomLanguageModelData` on Apple's platforms: the training data of a custom language model.
public typealias SFCustomLanguageModelData = CustomLanguageModelData
/// `SFSpeechLanguageModel` on Apple's platforms: prepares a custom language model for recognition.
public typealias SFSpeechLanguageModel = SpeechLanguageModel
