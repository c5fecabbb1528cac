//go:build conformance

package main

// The conformance suite asks TestSearchAgreementCLIMCP every query.
func init() { agreementAll = true }
