package io.ragsearch.contract;

/** Something one program handed the other does not follow the contract; the message is one line for a person. */
public class ContractException extends RuntimeException {
    public ContractException(String message) {
        super(message);
    }
}
