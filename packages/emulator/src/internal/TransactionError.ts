/**
 * The runtime's transaction errors as the RPC writes them: the JSON of agave's
 * `TransactionError` (a unit variant is its name, `"BlockhashNotFound"`; a variant with data an
 * object, `{ "InstructionError": [0, { "Custom": 1 }] }`, `{ "InsufficientFundsForRent":
 * { "account_index": 1 } }`) and its Display text, which the RPC puts after "Transaction
 * simulation failed: " when a preflight fails. LiteSVM's binding gives the error as numbers of
 * its enums (the Rust variants in order) or small classes; `fromLiteSvm` names them.
 *
 * @internal
 */

/** A transaction error in the RPC's JSON: a variant name or `{ variant: data }`. */
export type TransactionError = string | { readonly [variant: string]: unknown }

/** TransactionError's unit variants, in the order of LiteSVM's `TransactionErrorFieldless`, with their Display text. */
const TRANSACTION_ERRORS: ReadonlyArray<readonly [string, string]> = [
  ["AccountInUse", "Account in use"],
  ["AccountLoadedTwice", "Account loaded twice"],
  ["AccountNotFound", "Attempt to debit an account but found no record of a prior credit."],
  ["ProgramAccountNotFound", "Attempt to load a program that does not exist"],
  ["InsufficientFundsForFee", "Insufficient funds for fee"],
  ["InvalidAccountForFee", "This account may not be used to pay transaction fees"],
  ["AlreadyProcessed", "This transaction has already been processed"],
  ["BlockhashNotFound", "Blockhash not found"],
  ["CallChainTooDeep", "Loader call chain is too deep"],
  ["MissingSignatureForFee", "Transaction requires a fee but has no signature present"],
  ["InvalidAccountIndex", "Transaction contains an invalid account reference"],
  ["SignatureFailure", "Transaction did not pass signature verification"],
  ["InvalidProgramForExecution", "This program may not be used for executing instructions"],
  ["SanitizeFailure", "Transaction failed to sanitize accounts offsets correctly"],
  ["ClusterMaintenance", "Transactions are currently disabled due to cluster maintenance"],
  ["AccountBorrowOutstanding", "Transaction processing left an account with an outstanding borrowed reference"],
  ["WouldExceedMaxBlockCostLimit", "Transaction would exceed max Block Cost Limit"],
  ["UnsupportedVersion", "Transaction version is unsupported"],
  ["InvalidWritableAccount", "Transaction loads a writable account that cannot be written"],
  ["WouldExceedMaxAccountCostLimit", "Transaction would exceed max account limit within the block"],
  ["WouldExceedAccountDataBlockLimit", "Transaction would exceed account data limit within the block"],
  ["TooManyAccountLocks", "Transaction locked too many accounts"],
  ["AddressLookupTableNotFound", "Transaction loads an address table account that doesn't exist"],
  ["InvalidAddressLookupTableOwner", "Transaction loads an address table account with an invalid owner"],
  ["InvalidAddressLookupTableData", "Transaction loads an address table account with invalid data"],
  ["InvalidAddressLookupTableIndex", "Transaction address table lookup uses an invalid index"],
  ["InvalidRentPayingAccount", "Transaction leaves an account with a lower balance than rent-exempt minimum"],
  ["WouldExceedMaxVoteCostLimit", "Transaction would exceed max Vote Cost Limit"],
  ["WouldExceedAccountDataTotalLimit", "Transaction would exceed total account data limit"],
  ["MaxLoadedAccountsDataSizeExceeded", "Transaction exceeded max loaded accounts data size cap"],
  ["ResanitizationNeeded", "ResanitizationNeeded"],
  [
    "InvalidLoadedAccountsDataSizeLimit",
    "LoadedAccountsDataSizeLimit set for transaction must be greater than 0."
  ],
  ["UnbalancedTransaction", "Sum of account balances before and after transaction do not match"],
  ["ProgramCacheHitMaxLimit", "Program cache hit max limit"],
  ["CommitCancelled", "CommitCancelled"]
]

/** InstructionError's unit variants, in the order of LiteSVM's `InstructionErrorFieldless`, with their Display text. */
const INSTRUCTION_ERRORS: ReadonlyArray<readonly [string, string]> = [
  ["GenericError", "generic instruction error"],
  ["InvalidArgument", "invalid program argument"],
  ["InvalidInstructionData", "invalid instruction data"],
  ["InvalidAccountData", "invalid account data for instruction"],
  ["AccountDataTooSmall", "account data too small for instruction"],
  ["InsufficientFunds", "insufficient funds for instruction"],
  ["IncorrectProgramId", "incorrect program id for instruction"],
  ["MissingRequiredSignature", "missing required signature for instruction"],
  ["AccountAlreadyInitialized", "instruction requires an uninitialized account"],
  ["UninitializedAccount", "instruction requires an initialized account"],
  ["UnbalancedInstruction", "sum of account balances before and after instruction do not match"],
  ["ModifiedProgramId", "instruction illegally modified the program id of an account"],
  ["ExternalAccountLamportSpend", "instruction spent from the balance of an account it does not own"],
  ["ExternalAccountDataModified", "instruction modified data of an account it does not own"],
  ["ReadonlyLamportChange", "instruction changed the balance of a read-only account"],
  ["ReadonlyDataModified", "instruction modified data of a read-only account"],
  ["DuplicateAccountIndex", "instruction contains duplicate accounts"],
  ["ExecutableModified", "instruction changed executable bit of an account"],
  ["RentEpochModified", "instruction modified rent epoch of an account"],
  ["NotEnoughAccountKeys", "insufficient account keys for instruction"],
  ["AccountDataSizeChanged", "program other than the account's owner changed the size of the account data"],
  ["AccountNotExecutable", "instruction expected an executable account"],
  ["AccountBorrowFailed", "instruction tries to borrow reference for an account which is already borrowed"],
  ["AccountBorrowOutstanding", "instruction left account with an outstanding borrowed reference"],
  ["DuplicateAccountOutOfSync", "instruction modifications of multiply-passed account differ"],
  ["InvalidError", "program returned invalid error code"],
  ["ExecutableDataModified", "instruction changed executable accounts data"],
  ["ExecutableLamportChange", "instruction changed the balance of an executable account"],
  ["ExecutableAccountNotRentExempt", "executable accounts must be rent exempt"],
  ["UnsupportedProgramId", "Unsupported program id"],
  ["CallDepth", "Cross-program invocation call depth too deep"],
  ["MissingAccount", "An account required by the instruction is missing"],
  ["ReentrancyNotAllowed", "Cross-program invocation reentrancy not allowed for this instruction"],
  ["MaxSeedLengthExceeded", "Length of the seed is too long for address generation"],
  ["InvalidSeeds", "Provided seeds do not result in a valid address"],
  ["InvalidRealloc", "Failed to reallocate account data"],
  ["ComputationalBudgetExceeded", "Computational budget exceeded"],
  ["PrivilegeEscalation", "Cross-program invocation with unauthorized signer or writable account"],
  ["ProgramEnvironmentSetupFailure", "Failed to create program execution environment"],
  ["ProgramFailedToComplete", "Program failed to complete"],
  ["ProgramFailedToCompile", "Program failed to compile"],
  ["Immutable", "Account is immutable"],
  ["IncorrectAuthority", "Incorrect authority provided"],
  ["AccountNotRentExempt", "An account does not have enough lamports to be rent-exempt"],
  ["InvalidAccountOwner", "Invalid account owner"],
  ["ArithmeticOverflow", "Program arithmetic overflowed"],
  ["UnsupportedSysvar", "Unsupported sysvar"],
  ["IllegalOwner", "Provided owner is not allowed"],
  ["MaxAccountsDataAllocationsExceeded", "Accounts data allocations exceeded the maximum allowed per transaction"],
  ["MaxAccountsExceeded", "Max accounts exceeded"],
  ["MaxInstructionTraceLengthExceeded", "Max instruction trace length exceeded"],
  ["BuiltinProgramsMustConsumeComputeUnits", "Builtin programs must consume compute units"],
  ["BorshIoError", "Failed to serialize or deserialize account data"]
]

const unitDisplay = new Map([...TRANSACTION_ERRORS])
const instructionDisplay = new Map([...INSTRUCTION_ERRORS])

const instructionErrorOf = (e: unknown): unknown => {
  if (typeof e === "number") return INSTRUCTION_ERRORS[e]?.[0] ?? "GenericError"
  if (typeof e === "object" && e !== null && "code" in e) return { Custom: Number((e as { code: unknown }).code) }
  if (typeof e === "object" && e !== null && "msg" in e) return { BorshIoError: String((e as { msg: unknown }).msg) }
  return "GenericError"
}

/**
 * The RPC's JSON of an error LiteSVM returned (`FailedTransactionMetadata.err()`).
 *
 * @internal
 */
export const fromLiteSvm = (e: unknown): TransactionError => {
  if (typeof e === "number") return TRANSACTION_ERRORS[e]?.[0] ?? "SanitizeFailure"
  if (typeof e === "object" && e !== null) {
    const o = e as Record<string, unknown>
    const name = (e as { constructor?: { name?: string } }).constructor?.name ?? ""
    if (typeof o["err"] === "function" && typeof o["index"] === "number") {
      return { InstructionError: [o["index"], instructionErrorOf((o["err"] as () => unknown).call(e))] }
    }
    if (name.includes("DuplicateInstruction")) return { DuplicateInstruction: o["index"] }
    if (name.includes("InsufficientFundsForRent")) {
      return { InsufficientFundsForRent: { account_index: o["accountIndex"] } }
    }
    if (name.includes("ProgramExecutionTemporarilyRestricted")) {
      return { ProgramExecutionTemporarilyRestricted: { account_index: o["accountIndex"] } }
    }
  }
  return "SanitizeFailure"
}

/**
 * The Display text of a transaction error, as agave writes it (`Error processing Instruction 2:
 * custom program error: 0x1786`, `Blockhash not found`).
 *
 * @internal
 */
export const display = (err: TransactionError): string => {
  if (typeof err === "string") return unitDisplay.get(err) ?? err
  const [variant, data] = Object.entries(err)[0] ?? ["", undefined]
  switch (variant) {
    case "InstructionError": {
      const [index, ie] = data as [number, unknown]
      const text = typeof ie === "string"
        ? instructionDisplay.get(ie) ?? ie
        : typeof ie === "object" && ie !== null && "Custom" in ie
        ? `custom program error: 0x${Number((ie as { Custom: number }).Custom).toString(16)}`
        : typeof ie === "object" && ie !== null && "BorshIoError" in ie
        ? instructionDisplay.get("BorshIoError")!
        : String(ie)
      return `Error processing Instruction ${index}: ${text}`
    }
    case "DuplicateInstruction":
      return `Transaction contains a duplicate instruction (${data}) that is not allowed`
    case "InsufficientFundsForRent":
      return `Transaction results in an account (${
        (data as { account_index: number }).account_index
      }) with insufficient funds for rent`
    case "ProgramExecutionTemporarilyRestricted":
      return `Execution of the program referenced by account at index ${
        (data as { account_index: number }).account_index
      } is temporarily restricted.`
    default:
      return variant
  }
}
