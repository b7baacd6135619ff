/// `POST /v1/changes`: one change block, all of its requests or none
/// (``ChangeBlocks``), after the state an `If-Match` header names.
extension JSONRoutes {
    func performChanges(_ input: Operations.PerformChanges.Input) async throws -> Operations.PerformChanges.Output {
        let (library, principal) = try await library()
        let block =
            switch input.body {
            case .json(let block): block
            }
        // An empty If-Match counts as none, as every header the API reads.
        let precondition = input.headers.ifMatch.flatMap { $0.isEmpty ? nil : $0 }
        let committed = try await ChangeBlocks.commit(block, for: principal, in: library, uploads: uploads, precondition: precondition)
        metrics.changeBlockCommitted()
        libraries.videoConversions.scheduleNew(Array(committed.created.values), in: library)
        return .ok(.init(body: .json(.init(created: .init(additionalProperties: committed.created), token: committed.token))))
    }
}
