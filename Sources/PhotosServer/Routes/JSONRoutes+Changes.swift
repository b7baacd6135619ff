/// `POST /v1/changes`: one change block, all of its requests or none
/// (``ChangeBlocks``), after the state an `If-Match` header names.
extension JSONRoutes {
    func performChanges(_ input: Operations.PerformChanges.Input) async throws -> Operations.PerformChanges.Output {
        let (library, principal) = try await library()
        let block =
            switch input.body {
            case .json(let block): block
            }
        let committed = try await ChangeBlocks.commit(
            block, for: principal, in: library, uploads: uploads, precondition: input.headers.ifMatch)
        metrics.changeBlockCommitted()
        libraries.videoConversions.scheduleNew(Array(committed.created.values), in: library)
        return .ok(.init(body: .json(.init(created: .init(additionalProperties: committed.created), token: committed.token))))
    }
}
