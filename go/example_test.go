package ariadne_test

import (
	"fmt"
	"math"

	"ariadne"
)

// A kv history as a Porcupine test records it: the second get began after the put
// of "x" returned, yet missed it.
func ExampleCheck() {
	ops := []ariadne.Operation{
		{ClientId: 0, Input: ariadne.KvInput{Op: ariadne.KvPut, Key: "k", Value: "x"},
			Output: ariadne.KvOutput{}, Call: 0, Return: 10},
		{ClientId: 1, Input: ariadne.KvInput{Op: ariadne.KvGet, Key: "k"},
			Output: ariadne.KvOutput{Value: ""}, Call: 5, Return: 15}, // concurrent: fine
		{ClientId: 1, Input: ariadne.KvInput{Op: ariadne.KvGet, Key: "k"},
			Output: ariadne.KvOutput{Value: ""}, Call: 20, Return: 30}, // after: stale
		{ClientId: 2, Input: ariadne.KvInput{Op: ariadne.KvAppend, Key: "k", Value: "y"},
			Call: 25, Return: math.MaxInt64}, // never returned: may take effect, or not
	}
	result, err := ariadne.Check(ariadne.KvModel(), ops, ariadne.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(result.Verdict)
	fmt.Println("core:", result.Core, "failing op:", result.FailingOp, "key:", result.FailingKey)

	ops[2].Output = ariadne.KvOutput{Value: "xy"} // the append took effect first
	result, _ = ariadne.Check(ariadne.KvModel(), ops, ariadne.Options{})
	fmt.Println(result.Verdict, result.Linearization)
	// Output:
	// not-linearizable
	// core: [0 2] failing op: 2 key: "k"
	// linearizable [1 0 3 2]
}
