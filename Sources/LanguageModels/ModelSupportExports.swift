// The models folder and installation errors are shared with the speech models; clients of this
// module see them without importing ModelSupport.
@_exported import ModelSupport
// Apple's app code gets `@Observable` through its framework imports; so does code ported here.
@_exported import Observation
