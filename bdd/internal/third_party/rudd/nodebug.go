// Copyright (c) 2021 Silvano DAL ZILIO
//
// MIT License

package rudd

const _DEBUG bool = false
const _LOGLEVEL int = 0
